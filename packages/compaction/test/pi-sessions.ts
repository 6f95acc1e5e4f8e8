import fc from 'fast-check';

/**
 * Random pi sessions in pi's own file format (version 3), for differential tests: turns of a user
 * message, tool rounds (thinking, text, calls to file and shell tools, their results) and a final
 * answer; usage on most calls, some aborted or failed; model and thinking-level changes between
 * turns; optionally a compaction entry pi could have written; the
 * session may stop between tool rounds.
 */
export interface SessionOptions {
  /** Allow CJK text and images in user messages, where Tiller's estimate deliberately differs. */
  rich?: boolean;
  /** Insert an earlier compaction entry. */
  compaction?: boolean;
}

interface CallSpec {
  tool: string;
  file: number;
  resultChars: number;
  resultImage: boolean;
}
interface RoundSpec {
  thinkingChars: number;
  textChars: number;
  calls: CallSpec[];
  usage: number | null;
  stop: 'toolUse' | 'aborted' | 'error';
}
interface TurnSpec {
  userChars: number;
  userCjk: number;
  userImage: boolean;
  rounds: RoundSpec[];
  finalChars: number;
  finalUsage: number | null;
  settingsBefore: 0 | 1 | 2;
}

export interface GeneratedSession {
  text: string;
  keepRecentTokens: number;
}

const TOOLS = ['read', 'write', 'edit', 'bash', 'grep'];
const FILLER = 'The parser keeps its state in a stack; each token moves it. ';
export const CJK_SAMPLE = '数据库迁移需要在周五之前完成。ファイルを読みます。';

const fill = (chars: number, source = FILLER) => source.repeat(Math.ceil(chars / source.length) + 1).slice(0, chars);

function turnArb(rich: boolean): fc.Arbitrary<TurnSpec> {
  const call = fc.record({
    tool: fc.constantFrom(...TOOLS),
    file: fc.nat(6),
    resultChars: fc.oneof(fc.nat(2000), fc.nat(40_000)),
    resultImage: fc.integer({ min: 0, max: 9 }).map((k) => k === 0),
  });
  const round = fc.record({
    thinkingChars: fc.nat(1500),
    textChars: fc.nat(400),
    calls: fc.array(call, { minLength: 1, maxLength: 3 }),
    usage: fc.option(fc.integer({ min: 1000, max: 190_000 }), { freq: 4 }),
    stop: fc.constantFrom('toolUse', 'toolUse', 'toolUse', 'aborted', 'error'),
  });
  return fc.record({
    userChars: fc.nat(6000),
    userCjk: rich ? fc.nat(300) : fc.constant(0),
    userImage: rich ? fc.boolean() : fc.constant(false),
    rounds: fc.oneof({ arbitrary: fc.constant([]), weight: 2 }, { arbitrary: fc.array(round, { minLength: 1, maxLength: 5 }), weight: 3 }),
    finalChars: fc.nat(3000),
    finalUsage: fc.option(fc.integer({ min: 1000, max: 190_000 }), { freq: 4 }),
    settingsBefore: fc.constantFrom(0, 0, 1, 2),
  }) as fc.Arbitrary<TurnSpec>;
}

export function sessionArb(options: SessionOptions = {}): fc.Arbitrary<GeneratedSession> {
  return fc
    .record({
      turns: fc.array(turnArb(options.rich === true), { minLength: 1, maxLength: 14 }),
      keepRecentTokens: fc.integer({ min: 300, max: 40_000 }),
      compactionAt: fc.double({ min: 0.1, max: 0.9, noNaN: true }),
      keptBack: fc.nat(12),
      endsMidRound: fc.boolean(),
    })
    .map(({ turns, keepRecentTokens, compactionAt, keptBack, endsMidRound }) => ({
      text: writeSession(turns, options.compaction === true ? { at: compactionAt, keptBack } : undefined, endsMidRound),
      keepRecentTokens,
    }));
}

/** A call's usage; `0` for a call that reported none (pi writes zeros then). */
function usage(total: number) {
  return { input: Math.max(0, total - 200), output: Math.min(total, 200), cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** `endsMidRound`: the last turn stops after its tool results, as at a boundary between rounds. */
function writeSession(turns: TurnSpec[], compaction: { at: number; keptBack: number } | undefined, endsMidRound: boolean): string {
  const lines: Record<string, unknown>[] = [{ type: 'session', version: 3, id: 'generated', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/work' }];
  let n = 0;
  let parentId: string | null = null;
  const cutPoints: string[] = [];
  const add = (entry: Record<string, unknown>, cutPoint = false) => {
    const id = `g${++n}`;
    lines.push({ ...entry, id, parentId, timestamp: '2026-01-01T00:00:00.000Z' });
    parentId = id;
    if (cutPoint) cutPoints.push(id);
  };
  const message = (m: Record<string, unknown>, cutPoint: boolean) => add({ type: 'message', message: { ...m, timestamp: 0 } }, cutPoint);
  const assistant = (content: unknown[], total: number | null, stopReason: string) =>
    message({ role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(total ?? 0), stopReason }, true);
  const compactAfterTurn = compaction ? Math.floor(turns.length * compaction.at) : -1;

  turns.forEach((turn, t) => {
    if (turn.settingsBefore >= 1) add({ type: 'thinking_level_change', thinkingLevel: 'high' });
    if (turn.settingsBefore >= 2) add({ type: 'model_change', provider: 'openai', modelId: 'gpt-5' });
    const text = fill(turn.userChars) + fill(turn.userCjk, CJK_SAMPLE);
    const content = turn.userImage ? [{ type: 'text', text }, { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] : t % 2 === 0 ? text : [{ type: 'text', text }];
    message({ role: 'user', content }, true);
    turn.rounds.forEach((round, r) => {
      const calls = round.calls.map((c, k) => ({
        type: 'toolCall',
        id: `call-${t}-${r}-${k}`,
        name: c.tool,
        arguments: c.tool === 'bash' ? { command: `ls src/${c.file}` } : { path: `src/module-${c.file}.ts`, ...(c.tool === 'write' ? { content: fill(200) } : {}) },
      }));
      const parts: unknown[] = [];
      if (round.thinkingChars > 0) parts.push({ type: 'thinking', thinking: fill(round.thinkingChars), thinkingSignature: 'sig' });
      if (round.textChars > 0) parts.push({ type: 'text', text: fill(round.textChars) });
      assistant([...parts, ...calls], round.usage, round.usage === null ? 'toolUse' : round.stop);
      round.calls.forEach((c, k) => {
        const resultContent: unknown[] = [{ type: 'text', text: fill(c.resultChars) }];
        if (c.resultImage) resultContent.push({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
        message({ role: 'toolResult', toolCallId: `call-${t}-${r}-${k}`, toolName: c.tool, content: resultContent, isError: false }, false);
      });
    });
    const last = t === turns.length - 1;
    if (!(last && endsMidRound && turn.rounds.length > 0)) assistant([{ type: 'text', text: fill(turn.finalChars) }], turn.finalUsage, 'stop');
    if (t === compactAfterTurn && compaction) {
      const firstKept = cutPoints[Math.max(0, cutPoints.length - 1 - compaction.keptBack)]!;
      add({
        type: 'compaction',
        summary: `## Goal\nEarlier work, summarized (${fill(400)})`,
        firstKeptEntryId: firstKept,
        tokensBefore: 150_000,
        details: { readFiles: ['docs/old-notes.md', 'src/module-1.ts'], modifiedFiles: ['package.json'] },
      });
    }
  });
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}
