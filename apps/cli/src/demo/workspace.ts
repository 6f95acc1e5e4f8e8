import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** The small project the demo's agent works on: a slug function, its tests, its docs. */
export const SLUGIFY_SOURCE = String.raw`/** Turns a title into a URL slug: lower case, accents dropped, words joined by dashes. */
export function slugify(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}
`;

export const SLUGIFY_TEST = String.raw`import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { slugify } from './slugify.js';

test('joins words with dashes', () => assert.equal(slugify('Hello, World'), 'hello-world'));
test('drops accents', () => assert.equal(slugify('Crème brûlée'), 'creme-brulee'));
test('trims dashes at both ends', () => assert.equal(slugify('  --Tiller--  '), 'tiller'));
`;

const README_SECTIONS = [
  ['Install', 'npm install slugger. The package has no dependencies and runs on Node 20 and later, in Deno and in browsers.'],
  ['Usage', "import { slugify } from 'slugger'; slugify('Hello, World') returns 'hello-world'. Titles of any length are accepted."],
  ['How it works', 'The title is normalized to NFKD, so accented letters split into a base letter and a combining mark; the marks are dropped, the rest is lower-cased, and every run of characters that are not letters or digits becomes one dash. Dashes at both ends are trimmed.'],
  ['Unicode', 'Letters outside the Latin alphabet are removed today. A future version may transliterate them; until then, pass titles through your own transliteration first if you need them kept.'],
  ['Stability', 'Slugs are part of URLs, so the output for a given title never changes within a major version. New options are added with defaults that keep the old output.'],
  ['Performance', 'slugify runs a fixed number of regular expression passes over the title: linear in its length. A title of 10,000 characters takes well under a millisecond.'],
  ['Testing', 'npm test runs the tests with node:test. Every option has tests for its default and for the edge cases: empty titles, titles made only of punctuation, very long titles.'],
  ['Contributing', 'Open an issue first for new options. Keep the function small: one job, no configuration objects beyond the options argument, no global state.'],
];

export const README = `# slugger\n\nMakes URL slugs from titles.\n\n${README_SECTIONS.map(([title, text]) => `## ${title}\n\n${text}\n`).join('\n')}`;

export const CHANGELOG = '# Changelog\n\n## Unreleased\n\n## 1.0.0\n\n- First release: slugify(title).\n';

/** Writes the project into `dir`. */
export async function writeDemoWorkspace(dir: string): Promise<void> {
  const files: Record<string, string> = {
    'package.json': `${JSON.stringify({ name: 'slugger', version: '1.0.0', type: 'module', scripts: { test: 'node --test' } }, null, 2)}\n`,
    'README.md': README,
    'CHANGELOG.md': CHANGELOG,
    'src/slugify.ts': SLUGIFY_SOURCE,
    'src/slugify.test.ts': SLUGIFY_TEST,
  };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), text, 'utf8');
  }
}
