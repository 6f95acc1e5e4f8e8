/**
 * Bytes written per turn at one history length: `measure-bytes.ts <messages> <work dir>`. Every
 * side starts from the same conversation already stored and runs `TURNS` turns of the instant
 * model; the row is what its storage grew by, over the turns:
 * - Tiller: its session file (JSONL, `fsync: 'batch'`) and its file journal beside it;
 * - pi: its session file, as pi's `SessionManager` appends each message when its agent ends it
 *   (what pi's coding agent does on `message_end`);
 * - LangGraph: the checkpoints and pending writes the SQLite checkpointer stores (the bytes of
 *   their blobs; SQLite's own pages and write-ahead log come on top); left out where the optional
 *   checkpointer is not installed or did not build.
 * Prints the rows as JSON.
 */
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import type { AgentMessage } from '@mariozechner/pi-agent-core';
import type { Message as PiAiMessage } from '@mariozechner/pi-ai';
import { journalPathFor } from '@tiller/shell';
import { agentHistory } from './conversation.js';
import { piAgent, tillerFileAgent, writeSessionFile } from './instant-agents.js';
import { langGraphLoop, toLangChainMessages } from './langgraph-loop.js';
import type { Measurement } from './measurement.js';
import { messageHistory } from './message-history.js';
import { sourceSession } from './source-session.js';
import { sqliteCheckpointing } from './sqlite-checkpointer.js';

const TURNS = 5;
const KB = 1024;

const [sizeArg, dirArg] = process.argv.slice(2);
const size = Number(sizeArg);
if (!Number.isInteger(size) || size < 0 || !dirArg) throw new Error(`usage: measure-bytes.ts <messages in the history> <work dir>, got ${process.argv.slice(2).join(' ')}`);
const dir: string = dirArg;
await mkdir(dir, { recursive: true });
const source = sourceSession().lines;
const conversation = agentHistory(size, source);
const sizeOf = async (path: string) => (await stat(path).catch(() => ({ size: 0 }))).size;
const prompts = async (prompt: (text: string) => Promise<unknown>) => {
  for (let t = 0; t < TURNS; t++) await prompt(`question ${t}`);
};

async function tillerBytes(): Promise<{ session: number; journal: number }> {
  const template = join(dir, 'tiller-template.jsonl');
  await writeSessionFile(template, conversation.entries);
  const path = join(dir, 'tiller.jsonl');
  const agent = await tillerFileAgent(template, path);
  const before = await sizeOf(path);
  await prompts((text) => agent.prompt(text));
  await agent.close();
  await agent.session.close();
  return { session: (await sizeOf(path)) - before, journal: await sizeOf(journalPathFor(path)) };
}

async function piBytes(): Promise<number> {
  const path = join(dir, 'pi.jsonl');
  const header = { type: 'session', version: 3, id: 'bench-bytes', timestamp: '2026-01-01T00:00:00.000Z', cwd: dir };
  await writeFile(path, [header, ...messageHistory(source, size)].map((line) => `${JSON.stringify(line)}\n`).join(''));
  const sessions = SessionManager.open(path, dir);
  const agent = piAgent(conversation.piMessages);
  agent.subscribe((event) => {
    if (event.type === 'message_end') sessions.appendMessage(event.message as AgentMessage as PiAiMessage);
  });
  const before = await sizeOf(path);
  await prompts((text) => agent.prompt(text));
  return (await sizeOf(path)) - before;
}

async function langGraphBytes(): Promise<number> {
  const file = join(dir, 'langgraph.sqlite');
  const loop = await langGraphLoop(toLangChainMessages(conversation.messages), { kind: 'sqlite', file });
  const stored = () => loop.sqlite!.prepare('SELECT (SELECT COALESCE(SUM(LENGTH(checkpoint) + LENGTH(metadata)), 0) FROM checkpoints) + (SELECT COALESCE(SUM(LENGTH(value)), 0) FROM writes) AS bytes').get() as { bytes: number };
  const before = stored().bytes;
  await prompts((text) => loop.prompt(text));
  const grown = stored().bytes - before;
  await loop.close?.();
  return grown;
}

const tiller = await tillerBytes();
const piSession = await piBytes();
const checkpoints = (await sqliteCheckpointing()).available ? await langGraphBytes() : undefined;
await rm(dir, { recursive: true, force: true });
const perTurn = (bytes: number) => bytes / TURNS / KB;
const both = perTurn(tiller.session + tiller.journal);
const rows: Measurement[] = [
  { operation: 'turn-bytes', size, unit: 'KB', tiller: both, reference: { name: "pi's session file", value: perTurn(piSession) } },
  ...(checkpoints === undefined ? [] : [{ operation: 'turn-bytes', size, unit: 'KB', tiller: both, reference: { name: "LangGraph's SQLite checkpoints", value: perTurn(checkpoints) } } satisfies Measurement]),
  { operation: 'turn-bytes-session', size, unit: 'KB', tiller: perTurn(tiller.session), reference: { name: "pi's session file", value: perTurn(piSession) } },
];
process.stdout.write(JSON.stringify(rows));
