import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serializeSnapshot } from '@tiller/core';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { parseJournalLines, replayJournal } from '@tiller/shell';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordNotebookSession, type RecordedFiles } from '../../scripts/make-journals.js';
import { readJournal } from '../journal/read-journal.js';
import { readSession } from '../journal/read-session.js';
import { extendReplay, inFlight, replaySegment, toolRun } from './replay-segment.js';
import { segmentBase } from './segment-base.js';

let dir: string;
let files: RecordedFiles;
let journalText: string;
let sessionText: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tiller-inspector-'));
  files = await recordNotebookSession(dir);
  journalText = await readFile(files.journalFile, 'utf8');
  sessionText = await readFile(files.sessionFile, 'utf8');
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('replaying a recorded journal in the page', () => {
  it('reads every segment and input the shell wrote, and reproduces its digests and final snapshot', async () => {
    const journal = readJournal(journalText);
    expect(journal.problems).toEqual([]);
    const lines = parseJournalLines(journalText);
    expect(journal.segments).toHaveLength(lines.filter((l) => l.type === 'header').length);
    const session = readSession(sessionText, 'chat.jsonl');

    const last = journal.segments.at(-1)!;
    const replay = replaySegment(last, segmentBase(last, session, []));
    expect(replay.baseProblem).toBeNull();
    expect(replay.firstDivergence).toBeNull();
    const store = createSessionLog(await JsonlStore.open(files.sessionFile));
    const reference = replayJournal(lines, { session: store });
    await store.close();
    expect(serializeSnapshot(replay.steps.at(-1)!.snapshot)).toBe(serializeSnapshot(reference.snapshot));
    // The page's digests and hashes are the shell's: every recorded one, of every input, is reproduced.
    expect(journal.segments.flatMap((s) => s.inputs).every((i) => i.hash !== undefined)).toBe(true);
    for (const segment of journal.segments) {
      const all = replaySegment(segment, segmentBase(segment, session, []));
      expect(all.firstDivergence).toBeNull();
      expect(all.steps.map((s) => s.digests)).toEqual(segment.inputs.map((i) => i.effects));
    }
  });

  it('says what each step did: states, queued messages, tool runs, calls with their usage, the compaction', () => {
    const journal = readJournal(journalText);
    const first = replaySegment(journal.segments[0]!, []);
    expect(first.steps[0]).toMatchObject({ before: 'idle', after: 'steering', stay: null });
    const followUp = first.steps.find((s) => s.recorded.input.type === 'follow_up')!;
    expect(followUp.before).toBe(followUp.after);
    expect(followUp.stay).toMatch(/queued a follow-up/);
    const approval = first.steps.find((s) => s.recorded.input.type === 'approval.needed')!;
    expect(approval.after).toBe('tools.awaitingApproval');

    // The write asked for approval in its first batch, and ran in the batch after the decision.
    expect(first.batches.map((b) => b.calls.map((c) => c.name))).toEqual([['read_note', 'read_note'], ['write_note'], ['write_note']]);
    expect(first.batches[0]!.calls.every((c) => toolRun(first, c.id, first.batches[0]!.id)?.outcome !== undefined)).toBe(true);
    const write = first.batches[1]!.calls[0]!.id;
    expect(toolRun(first, write, first.batches[1]!.id)).toBeUndefined();
    expect(toolRun(first, write, first.batches[2]!.id)?.outcome?.isError).toBe(false);
    expect(first.calls).toHaveLength(4);
    expect(first.calls.every((c) => c.answer?.kind === 'done' && c.answer.usage !== undefined)).toBe(true);
    expect(first.calls[1]!.messages.length).toBeGreaterThan(first.calls[0]!.messages.length);
    // A call keeps the view it was sent (shared, not copied): after the whole replay it still holds
    // what the recording says it was sent, the compaction between calls 2 and 3 notwithstanding.
    for (const call of first.calls) {
      const recorded = first.steps[call.step]!.recorded.effects.find((d) => d.startsWith(`call_llm ${call.id} `))!;
      expect(`call_llm ${call.id} ${call.messages.toArray().length} messages`).toBe(recorded);
    }
    expect(first.calls[2]!.messages.length).toBeLessThan(first.calls[1]!.messages.length);
    const compacted = first.compactions.filter((c) => c.compacted);
    expect(compacted).toHaveLength(1);
    expect(compacted[0]!.tokensBefore).toBeGreaterThan(compacted[0]!.tokensAfter!);
    expect(inFlight(first, first.steps.length - 1)).toBeNull();
    expect(inFlight(first, 0)?.type).toBe('maybe_compact');
  });

  it('marks the first input whose effects differ from the recording, and says when the base is missing', () => {
    const journal = readJournal(journalText);
    // The model "said" something else this time: no tool calls.
    const reply = journal.segments[0]!.inputs.find((i) => i.input.type === 'llm.done')!;
    reply.input = { ...reply.input, message: { role: 'assistant', content: [{ type: 'text', text: 'no tools' }] }, stopReason: 'stop' };
    const replay = replaySegment(journal.segments[0]!, []);
    expect(replay.firstDivergence).not.toBeNull();
    expect(replay.steps[replay.firstDivergence!]!.recorded.input.type).toBe('llm.done');

    // A change the digests do not show (only ids and counts) but the hash of the effects does.
    const reworded = readJournal(journalText);
    const start = reworded.segments[0]!.inputs[0]!;
    start.input = { ...start.input, message: { role: 'user', content: 'Something else entirely.' } };
    const rewordedReplay = replaySegment(reworded.segments[0]!, []);
    expect(rewordedReplay.steps[0]!.digests).toEqual(start.effects);
    expect(rewordedReplay.firstDivergence).toBe(0);

    const [one, two] = readJournal(journalText).segments;
    const second = replaySegment(two!, []);
    expect(second.baseProblem).toMatch(/a path of 1 entries.*open the session file/);
    // Without the session file, the base is found among what the earlier run appended.
    const fromEarlier = replaySegment(two!, segmentBase(two!, undefined, [replaySegment(one!, [])]));
    expect(fromEarlier.baseProblem).toBeNull();
    expect(fromEarlier.firstDivergence).toBeNull();
  });

  it('stops the replay before an input nested deeper than JSON.stringify can go, and says so naming its line', () => {
    // JSON.parse reads 20,000 levels; the hash of the step's effects (JSON.stringify) overflows the stack.
    const deep = `${'['.repeat(20_000)}${']'.repeat(20_000)}`;
    const lines = journalText.split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"llm.done"') && l.includes('"toolCall"'));
    expect(at).toBeGreaterThan(0);
    lines[at] = lines[at]!.replace(/"args":\{/, `"args":{"deep":${deep},`);
    const journal = readJournal(lines.join('\n'));
    const segment = journal.segments[0]!;
    const index = segment.inputs.findIndex((i) => i.line === at + 1);
    const replay = replaySegment(segment, []);
    expect(replay.steps).toHaveLength(index);
    expect(replay.stopped).toMatch(new RegExp(`^journal line ${at + 1}: input ${segment.inputs[index]!.seq} \\(llm\\.done\\) cannot be replayed: it nests too deep \\(Maximum call stack size exceeded\\); the replay stops before it$`));
    expect(extendReplay(replay)).toBe(0);
    expect(replaySegment(readJournal(journalText).segments[0]!, []).stopped).toBeNull();
  });

  it('loads what a torn journal holds and names the bad line', () => {
    const cut = journalText.slice(0, journalText.length - 40);
    const journal = readJournal(cut);
    expect(journal.problems).toEqual([{ line: journalText.trim().split('\n').length, message: expect.stringMatching(/incomplete/) }]);
    const garbled = readJournal(journalText.replace('\n', '\n{oops\n'));
    expect(garbled.problems[0]!.message).toMatch(/^journal line 2: not JSON/);
    expect(garbled.segments[0]!.inputs.length).toBe(readJournal(journalText).segments[0]!.inputs.length);
  });
});
