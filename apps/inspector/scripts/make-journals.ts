/**
 * Journals recorded by real agents (the real shell, the scripted model, real tools), for the
 * inspector's tests, its benchmark and its screenshots. Nothing here is written by hand: every
 * line comes from `createAgent` over a JSONL session with its journal beside it.
 *
 * Run `pnpm --filter @tiller/inspector fixtures [folder]` to write them to a folder.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WindowManager } from '@tiller/compaction';
import { createSessionLog, JsonlStore, type SessionLog } from '@tiller/session';
import { createAgent, defineTool, fileJournal, journalPathFor, type Agent, type ToolPolicy } from '@tiller/shell';
import { scriptedModel, type ScriptStep } from '@tiller/testing';
import { z } from 'zod';

export interface RecordedFiles {
  sessionFile: string;
  journalFile: string;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A notebook the tools work on; the notes are long so the context fills a small window. */
function notebookTools(onRead?: () => void) {
  const notes = new Map<string, string>([
    ['groceries', `milk, eggs. ${'Remember the list is for the week. '.repeat(80)}`],
    ['todo', `call the plumber. ${'Then water the plants and check the mail. '.repeat(80)}`],
  ]);
  const readNote = defineTool({
    name: 'read_note',
    description: 'Reads a note by its title.',
    input: z.object({ title: z.string() }),
    idempotent: true,
    execute: async ({ title }) => {
      onRead?.();
      await pause(20);
      return notes.get(title) ?? { content: [{ type: 'text', text: `There is no note "${title}".` }], isError: true };
    },
  });
  const writeNote = defineTool({
    name: 'write_note',
    description: 'Writes (or replaces) a note.',
    input: z.object({ title: z.string(), text: z.string() }),
    execute: async ({ title, text }) => {
      await pause(10);
      notes.set(title, text);
      return `Saved "${title}".`;
    },
  });
  return [readNote, writeNote];
}

/** Reading is free; writing asks. */
const askBeforeWriting: ToolPolicy = (call) => (call.name === 'write_note' ? { decision: 'ask' } : { decision: 'allow' });

function approveEverything(agent: Agent): void {
  agent.subscribe((event) => {
    if (event.type === 'approval.requested') agent.approve(event.calls.map((call) => ({ toolCallId: call.id, decision: 'allow' as const })));
  });
}

async function openSession(dir: string, name: string): Promise<{ session: SessionLog; files: RecordedFiles }> {
  await mkdir(dir, { recursive: true });
  const sessionFile = join(dir, `${name}.jsonl`);
  const session = createSessionLog(await JsonlStore.open(sessionFile));
  return { session, files: { sessionFile, journalFile: journalPathFor(sessionFile) } };
}

export const NOTES_WINDOW = 2_000;

/**
 * A notebook session: a parallel batch of reads, a steer that arrives while they run, a write
 * that asks for approval, a compaction between tool rounds (the window is small), a follow-up,
 * a label; then a second run that branches from the first answer (a second journal segment).
 */
export async function recordNotebookSession(dir: string, options: { delayMs?: number } = {}): Promise<RecordedFiles> {
  const { session, files } = await openSession(dir, 'notebook');
  const delayMs = options.delayMs ?? 0;
  let agent: Agent | undefined;
  let steered = false;
  const tools = notebookTools(() => {
    if (steered || !agent) return;
    steered = true;
    void agent.steer('Also add bread to the groceries.');
  });
  const script: ScriptStep[] = [
    {
      thinking: 'I should read both notes first.',
      text: 'Reading your notes.',
      toolCalls: [
        { name: 'read_note', args: { title: 'groceries' } },
        { name: 'read_note', args: { title: 'todo' } },
      ],
      delayMs,
    },
    { text: 'Adding bread.', toolCalls: [{ name: 'write_note', args: { title: 'groceries', text: 'milk, eggs, bread' } }], delayMs },
    { text: 'Done: groceries now say milk, eggs, bread; the plumber is still on your list.', delayMs },
    { text: 'Nothing else is due today.', delayMs },
  ];
  agent = createAgent({
    model: scriptedModel(script, { id: 'scripted/notes', contextWindow: NOTES_WINDOW }),
    tools,
    policy: askBeforeWriting,
    session,
    journal: fileJournal(files.journalFile, { durability: 'never' }),
    compactor: WindowManager({ strategy: 'keepTail', reserveTokens: 500, keepRecentTokens: 400 }),
    systemPrompt: 'You keep the user\'s notebook.',
  });
  approveEverything(agent);
  const turn = agent.prompt('Tidy up my notes.');
  // Queued while the turn runs: it starts one more call when the turn would end.
  await agent.followUp('Anything else due today?');
  await turn;
  await agent.idle();
  await agent.close();

  const firstAnswer = session.entries().find((e) => e.kind === 'message' && e.message.role === 'assistant');
  if (firstAnswer) await session.setLabel(firstAnswer.id, 'first answer');
  const tail = session.entries().filter((e) => e.kind === 'message').at(-1)!;
  await session.setLabel(tail.id, 'end of first run');

  // A second run that continues from the first user message: a branch, recorded as a new segment.
  const firstUser = session.entries().find((e) => e.kind === 'message' && e.message.role === 'user')!;
  session.branch(firstUser.id);
  const again = createAgent({
    model: scriptedModel([{ text: 'On this branch I will only summarise: two notes, nothing changed.' }], { id: 'scripted/notes', contextWindow: NOTES_WINDOW }),
    tools: notebookTools(),
    session,
    journal: fileJournal(files.journalFile, { durability: 'never' }),
  });
  await again.prompt('Just summarise instead.');
  await again.close();
  await session.close();
  return files;
}

/**
 * A long run: `rounds` model calls with one tool call each, in turns of `perTurn` rounds; about
 * three inputs a round (the reply, the tool results, the boundary's compaction answer).
 */
export async function recordLongSession(dir: string, options: { rounds: number; perTurn?: number }): Promise<RecordedFiles> {
  const { session, files } = await openSession(dir, 'long');
  const perTurn = options.perTurn ?? 50;
  const echo = defineTool({
    name: 'echo',
    description: 'Returns its text.',
    input: z.object({ text: z.string() }),
    execute: ({ text }) => text,
  });
  const script: ScriptStep[] = [];
  for (let round = 0; round < options.rounds; round++) {
    script.push({ toolCalls: [{ name: 'echo', args: { text: `round ${round}` } }] });
    if ((round + 1) % perTurn === 0) script.push({ text: `turn done after round ${round}` });
  }
  if (options.rounds % perTurn !== 0) script.push({ text: 'done' });
  const agent = createAgent({
    model: scriptedModel(script, { id: 'scripted/long', contextWindow: 1_000_000 }),
    tools: [echo],
    session,
    journal: fileJournal(files.journalFile, { durability: 'never' }),
    limits: { maxIterations: perTurn + 1 },
  });
  const turns = Math.ceil(options.rounds / perTurn);
  for (let turn = 0; turn < turns; turn++) await agent.prompt(`turn ${turn}`);
  await agent.close();
  await session.close();
  return files;
}

async function main(): Promise<void> {
  const dir = resolve(process.argv[2] ?? 'inspector-journals');
  const notebook = await recordNotebookSession(dir);
  const long = await recordLongSession(dir, { rounds: 1_000 });
  console.log([notebook.sessionFile, notebook.journalFile, long.sessionFile, long.journalFile].join('\n'));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
