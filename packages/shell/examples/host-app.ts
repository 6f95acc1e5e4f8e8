/**
 * A complete host app over @tiller/shell: a session in a JSONL file with its journal beside it,
 * two tools (one needs approval), a compactor, streaming output, approvals, and resume after a
 * crash. Run it with `pnpm tsx packages/shell/examples/host-app.ts [folder]`; with TILLER_BASE_URL
 * (and TILLER_MODEL, TILLER_API_KEY) it talks to an OpenAI-compatible server, otherwise to a
 * scripted model.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { WindowManager } from '@tiller/compaction';
import type { TurnOutcome } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { z } from 'zod';
import { createAgent, defineTool, fileJournal, fromLanguageModel, journalPathFor, resumeAgent, type Agent, type TillerModel, type ToolPolicy } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';

/** The app's own state the tools work on: a notebook. */
const notebook = new Map<string, string>([['groceries', 'milk, eggs']]);

const readNote = defineTool({
  name: 'read_note',
  description: 'Reads a note from the notebook by its title.',
  input: z.object({ title: z.string().describe('the note title') }),
  idempotent: true,
  execute: ({ title }) => notebook.get(title) ?? { content: [{ type: 'text', text: `There is no note "${title}".` }], isError: true },
});

const writeNote = defineTool({
  name: 'write_note',
  description: 'Writes (or replaces) a note in the notebook.',
  input: z.object({ title: z.string(), text: z.string() }),
  sequential: true,
  execute: ({ title, text }) => {
    notebook.set(title, text);
    return `Saved "${title}".`;
  },
});

/** Reading is free; writing asks the user. */
const policy: ToolPolicy = (call) => (call.name === 'write_note' ? { decision: 'ask' } : { decision: 'allow' });

function chooseModel(): TillerModel {
  const baseURL = process.env.TILLER_BASE_URL;
  if (baseURL) {
    const provider = createOpenAICompatible({ name: 'local', baseURL, apiKey: process.env.TILLER_API_KEY, includeUsage: true });
    return fromLanguageModel(provider.chatModel(process.env.TILLER_MODEL ?? 'default'), { contextWindow: 32_000 });
  }
  return scriptedModel(
    [
      { thinking: 'I need the current list first.', toolCalls: [{ name: 'read_note', args: { title: 'groceries' } }] },
      { text: 'Adding bread.', toolCalls: [{ name: 'write_note', args: { title: 'groceries', text: 'milk, eggs, bread' } }] },
      { text: 'Done: the list is now milk, eggs, bread.' },
    ],
    { id: 'scripted/demo', contextWindow: 32_000 },
  );
}

export interface HostAppRun {
  outcome: TurnOutcome;
  output: string[];
  sessionFile: string;
}

/** Opens (or resumes) the session in `dir`, runs one prompt, and closes everything. */
export async function runHostApp(options: { dir: string; prompt: string; model?: TillerModel; approve?: boolean }): Promise<HostAppRun> {
  const sessionFile = join(options.dir, 'notes-session.jsonl');
  const store = await JsonlStore.open(sessionFile, { create: true });
  const session = createSessionLog(store);
  const journal = fileJournal(journalPathFor(sessionFile));
  const output: string[] = [];
  const settings = {
    model: options.model ?? chooseModel(),
    tools: [readNote, writeNote],
    policy,
    session,
    journal,
    systemPrompt: 'You keep the user\'s notebook. Use the tools; say briefly what you did.',
    compactor: WindowManager({ strategy: 'keepTail', keepRecentTokens: 4_000 }),
    limits: { maxIterations: 10, approvalTimeoutMs: 60_000 },
  };

  // A journal with an unfinished turn means the last run crashed: pick the turn up where it stood.
  const agent: Agent = (await journal.read()).length > 0 ? await resumeAgent({ ...settings, listener: (e) => show(e, output) }) : createAgent(settings);
  agent.subscribe((event) => {
    show(event, output);
    // A real app would ask its user here; the example decides from its options.
    if (event.type === 'approval.requested') {
      agent.approve(
        event.calls.map((call) =>
          options.approve === false ? { toolCallId: call.id, decision: 'deny' as const, rationale: 'The user said no.' } : { toolCallId: call.id, decision: 'allow' as const },
        ),
      );
    }
  });

  try {
    // A resumed turn finishes first; then the new prompt runs.
    await agent.idle();
    const outcome = await agent.prompt(options.prompt);
    return { outcome, output, sessionFile };
  } finally {
    await agent.close();
    await session.close();
  }
}

function show(event: Parameters<Parameters<Agent['subscribe']>[0]>[0], output: string[]): void {
  switch (event.type) {
    case 'text.delta':
      output.push(event.delta);
      break;
    case 'tool.started':
      output.push(`\n[${event.toolName}]`);
      break;
    case 'approval.requested':
      output.push(`\n[asks to run ${event.calls.map((c) => c.name).join(', ')}]`);
      break;
    case 'compaction.finished':
      if (event.meta.compacted) output.push(`\n[compacted ${event.meta.tokensBefore} -> ${event.meta.tokensAfter} tokens]`);
      break;
    case 'turn.ended':
      output.push(`\n[${event.outcome.status}]\n`);
      break;
    default:
      break;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? (await mkdtemp(join(tmpdir(), 'tiller-host-app-')));
  const run = await runHostApp({ dir, prompt: 'Add bread to my groceries.' });
  process.stdout.write(`${run.output.join('')}session: ${run.sessionFile}\n`);
}
