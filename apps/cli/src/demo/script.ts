import type { Summarizer } from '@tiller/compaction';
import type { ScriptStep } from '@tiller/testing';
import { CHANGELOG, README, SLUGIFY_SOURCE, SLUGIFY_TEST } from './workspace.js';

export const DEMO_PROMPT = 'Add a maxLength option to slugify that cuts the slug at a word boundary, with tests, and document it in the README.';
/** Sent while the second tool round runs: it joins the context at the next boundary. */
export const DEMO_STEER = 'Keep the default behaviour unchanged: no limit unless maxLength is given.';
/** Queued while the agent works; it starts another model call when the turn would end. */
export const DEMO_FOLLOW_UP = 'Also add a line about it to CHANGELOG.md.';

const NEW_SOURCE = String.raw`export interface SlugifyOptions {
  /** The longest slug to return, cut at the last dash that fits. No limit by default. */
  maxLength?: number;
}

/** Turns a title into a URL slug: lower case, accents dropped, words joined by dashes. */
export function slugify(title: string, options: SlugifyOptions = {}): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const { maxLength } = options;
  if (maxLength === undefined || slug.length <= maxLength) return slug;
  const cut = slug.slice(0, maxLength + 1).lastIndexOf('-');
  return cut > 0 ? slug.slice(0, cut) : slug.slice(0, maxLength);
}
`;

const oldFunction = SLUGIFY_SOURCE.slice(SLUGIFY_SOURCE.indexOf('/**'));
const lastTest = SLUGIFY_TEST.trimEnd().split('\n').at(-1)!;
const usageLine = README.split('\n').find((line) => line.startsWith("import { slugify }"))!;
const unreleased = '## Unreleased\n';

if (!CHANGELOG.includes(unreleased)) throw new Error('the demo changelog lost its Unreleased section');

/**
 * What the scripted model answers, call by call: a coding agent exploring the project, editing
 * the function, its tests and docs, heeding the steer and the follow-up.
 */
export const DEMO_SCRIPT: ScriptStep[] = [
  {
    thinking: 'I should see the layout of the project before changing anything.',
    text: 'Let me look at the project first.',
    toolCalls: [{ name: 'list_files', args: { path: '.' } }],
  },
  {
    text: 'The function is in src/slugify.ts. Reading it and the README together.',
    toolCalls: [
      { name: 'read_file', args: { path: 'src/slugify.ts' } },
      { name: 'read_file', args: { path: 'README.md' } },
    ],
  },
  {
    thinking: 'The user wants the old output kept when no option is given. An options object with an optional maxLength does that.',
    text: 'Understood: without maxLength the slug stays exactly as it is. Editing the function.',
    toolCalls: [{ name: 'edit_file', args: { path: 'src/slugify.ts', oldText: oldFunction, newText: NEW_SOURCE } }],
  },
  {
    text: 'Now the tests.',
    toolCalls: [{ name: 'read_file', args: { path: 'src/slugify.test.ts' } }],
  },
  {
    toolCalls: [
      {
        name: 'edit_file',
        args: {
          path: 'src/slugify.test.ts',
          oldText: lastTest,
          newText: `${lastTest}\ntest('cuts at a word boundary', () => assert.equal(slugify('Hello big world', { maxLength: 9 }), 'hello-big'));\ntest('no limit by default', () => assert.equal(slugify('Hello big world'), 'hello-big-world'));`,
        },
      },
    ],
  },
  {
    text: 'And the README.',
    toolCalls: [
      {
        name: 'edit_file',
        args: {
          path: 'README.md',
          oldText: usageLine,
          newText: `${usageLine}\n\nslugify(title, { maxLength }) cuts the slug at the last dash that fits in maxLength characters; without it the slug is not cut.`,
        },
      },
    ],
  },
  { text: 'Done: slugify(title, { maxLength }) cuts at a word boundary, the default is unchanged, two new tests cover both, and the README says how to use it.' },
  {
    text: 'Adding the changelog line.',
    toolCalls: [{ name: 'edit_file', args: { path: 'CHANGELOG.md', oldText: unreleased, newText: `${unreleased}\n- slugify(title, { maxLength }): cut slugs at a word boundary.\n` } }],
  },
  { text: 'The changelog has its line under Unreleased. Everything asked for is in place.' },
];

/** A summarizer that writes the summary a model would, without a model call. */
export const demoSummarizer: Summarizer = {
  model: 'scripted/summarizer',
  async summarize(request) {
    const text = [
      '## Goal',
      'Add a maxLength option to slugify (cut at a word boundary), with tests, documented in the README.',
      '## Progress',
      request.purpose.startsWith('history-update') ? '- Read the project; edited src/slugify.ts; working on tests and docs.' : '- Listed the project; read src/slugify.ts and README.md.',
      '## Constraints',
      '- No limit unless maxLength is given: the default output must not change.',
    ].join('\n');
    return { text, model: 'scripted/summarizer', usage: { input: Math.ceil(request.prompt.length / 4), output: Math.ceil(text.length / 4), cacheRead: 0, cacheWrite: 0, totalTokens: Math.ceil((request.prompt.length + text.length) / 4) } };
  },
};
