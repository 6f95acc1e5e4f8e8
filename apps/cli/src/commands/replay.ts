import { existsSync } from 'node:fs';
import type { TurnEvent } from '@tiller/core';
import { journalPathFor } from '@tiller/shell';
import { defineCommand, type Io } from '../cli/command.js';
import { ExitCode, inputError } from '../cli/errors.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { firstLineHeader } from '../sessions/first-line.js';
import { type FilesReplay, inputId, readInputFile, replayFiles } from '../sessions/replay-files.js';
import { describeCall, describeOutcome, shorten } from '../view/describe.js';

export const replayCommand = defineCommand({
  name: 'replay',
  summary: 'replay a journal through the core, with no model call, and check it reproduces what was recorded',
  args: '<journal|session>',
  positionals: { min: 1, max: 1 },
  description: [
    'Every segment (one per agent run) is stepped again through the pure turn machine from the',
    'session path it started at, and each input\'s effects are compared with the ones recorded.',
    'Given a session file, its journal is the file beside it (chat.jsonl -> chat.journal.jsonl).',
    'Exits 1 and names the first divergence when there is one.',
  ].join('\n'),
  options: {
    quiet: { type: 'boolean', short: 'q', description: 'print only the verdict, not the timeline' },
  },
  async run({ positionals, options }, io) {
    const { journalPath, sessionPath } = await locate(positionals[0]!);
    const result = await replayFiles(journalPath, sessionPath);
    sayReadWarnings(io, result.warnings);
    if (!options.quiet) printTimeline(result, io);
    io.stdout.write(`${verdict(result, io)}\n`);
    return result.diverged ? ExitCode.failed : ExitCode.ok;
  },
});

/** Which file is the journal and which the session, from what the first line says. */
async function locate(path: string): Promise<{ journalPath: string; sessionPath: string | undefined }> {
  const text = await readInputFile(path, 'journal or session file');
  if (text.trim() === '') throw inputError(`${path}: the file is empty`);
  let head: { type?: unknown; format?: unknown } = {};
  try {
    head = firstLineHeader(text);
  } catch {
    throw inputError(`${path}:1: not a Tiller journal or session (the first line is not JSON)`);
  }
  if (head.format === 'tiller.journal') {
    const beside = path.endsWith('.journal.jsonl') ? `${path.slice(0, -'.journal.jsonl'.length)}.jsonl` : undefined;
    return { journalPath: path, sessionPath: beside && existsSync(beside) ? beside : undefined };
  }
  if (head.type === 'tiller.session') {
    const journalPath = journalPathFor(path);
    if (!existsSync(journalPath)) throw inputError(`${path}: this session has no journal beside it (${journalPath}); nothing to replay`);
    return { journalPath, sessionPath: path };
  }
  if (head.type === 'session') throw inputError(`${path}: a pi session has no journal; nothing to replay (tiller show reads it)`);
  throw inputError(`${path}:1: not a Tiller journal or session`);
}

/** Effect ids start with the turn's id (a UUID); the timeline shows the rest. */
const TURN_ID_PREFIX = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:/g;

function printTimeline(result: FilesReplay, io: Io): void {
  const { out } = io;
  const write = (text: string) => io.stdout.write(`${text}\n`);
  write(`${out.bold('journal')}  ${result.journalPath} (${result.segments.length} segment${result.segments.length === 1 ? '' : 's'})`);
  if (result.sessionPath) write(`${out.bold('session')}  ${result.sessionPath}`);
  for (const segment of result.segments) {
    const from = segment.header.baseLeafId === null ? 'an empty session' : `entry ${segment.header.baseLeafId} (${segment.header.baseSize} entries)`;
    write('');
    write(out.bold(`segment ${segment.index}`) + out.dim(`  from ${from} · ${segment.header.createdAt} · ${segment.inputs.length} inputs`));
    const divergence = segment.replay.divergence;
    for (const line of segment.inputs) {
      const blocking = line.effects.filter((d) => !d.startsWith('persist') && !d.startsWith('emit')).at(-1)?.replace(TURN_ID_PREFIX, '');
      const diverged = divergence?.seq === line.seq;
      const text = `${String(line.seq).padStart(4)}  ${line.input.type.padEnd(17)} ${describeInput(line.input).padEnd(46)} ${blocking ? `→ ${blocking}` : ''}`;
      write(diverged ? out.red(`${text}  ✗ diverges`) : text);
    }
    const outcome = segment.replay.snapshot.context.lastOutcome;
    if (outcome) write(out.dim(`      turn ${describeOutcome(outcome)}`));
  }
  write('');
}

function verdict(result: FilesReplay, io: Io): string {
  const inputs = result.segments.reduce((n, s) => n + s.replay.inputs, 0);
  const effects = result.segments.reduce((n, s) => n + s.replay.effects.length, 0);
  const { diverged } = result;
  if (!diverged) {
    return io.out.green(
      `replay: identical (${result.segments.length} segment${result.segments.length === 1 ? '' : 's'}, ${inputs} inputs, ${effects} effects; no model call, no tool run)`,
    );
  }
  const d = diverged.replay.divergence!;
  const same = d.expected.length === d.actual.length && d.expected.every((e, i) => e === d.actual[i]);
  const what = same
    ? `the same effects [${d.actual.join('; ')}] with other content than recorded`
    : `recorded [${d.expected.join('; ')}], replayed [${d.actual.join('; ')}]`;
  return io.out.red(`replay: diverged in segment ${diverged.index} at input ${d.seq} (${d.inputType}): ${what}`);
}

/** One input in a few words. */
function describeInput(input: TurnEvent): string {
  const id = inputId(input);
  switch (input.type) {
    case 'turn.start':
    case 'steer':
    case 'follow_up': {
      const content = input.message.content;
      const text = typeof content === 'string' ? content : content.map((p) => ('text' in p ? p.text : `[${p.type}]`)).join(' ');
      return JSON.stringify(shorten(text, 40));
    }
    case 'llm.done': {
      const calls = input.message.content.filter((p) => p.type === 'toolCall');
      if (calls.length > 0) return shorten(calls.map((c) => describeCall(c)).join(', '), 44);
      const text = input.message.content.find((p) => p.type === 'text');
      return text && 'text' in text ? JSON.stringify(shorten(text.text, 40)) : `(${input.stopReason})`;
    }
    case 'llm.failed':
      return `${input.error.kind}: ${shorten(input.error.message, 36)}`;
    case 'tools.done':
      return `${input.results.length} result${input.results.length === 1 ? '' : 's'}${input.results.some((r) => r.isError) ? ' (with errors)' : ''}`;
    case 'approval.needed':
      return `${input.toolCallIds.length} call${input.toolCallIds.length === 1 ? '' : 's'} ask`;
    case 'approval.decided':
      return input.decisions.map((d) => d.decision).join(', ');
    case 'compaction.done':
      return input.meta.compacted ? `compacted ${input.meta.tokensBefore} → ${input.meta.tokensAfter} tokens` : 'nothing to compact';
    case 'abort':
      return input.reason ? shorten(input.reason, 44) : '';
    default: {
      const unknown: never = input;
      return id ?? JSON.stringify(unknown);
    }
  }
}
