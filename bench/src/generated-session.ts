import type { PiLine } from './scale-session.js';

/**
 * A pi session (format 3, root first) made from a seed, shaped like a coding agent's recording:
 * a user asks, the assistant answers with text and one to three tool calls per round (read, bash,
 * edit), each call gets its result, a few rounds later a text answer; now and then a thinking
 * block or a thinking-level change. Lengths follow the recording the bench otherwise uses (user
 * messages of about 250 characters, assistant messages about 700, tool results about 800 with a
 * long tail), so a bare clone measures a conversation of the same kind. The same seed and size
 * always give the same lines.
 */
export function generatedSession(seed: number, size: number): PiLine[] {
  if (!Number.isInteger(size) || size < 0) throw new RangeError(`size must be a non-negative integer, got ${size}`);
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
  const text = (length: number) => {
    const words: string[] = [];
    let total = 0;
    while (total < length) {
      const word = pick(WORDS);
      words.push(word);
      total += word.length + 1;
    }
    return words.join(' ');
  };
  /** Mostly short, sometimes ten times longer: tool output has a long tail. */
  const resultLength = () => (random() < 0.1 ? between(2000, 8000) : between(200, 1200));

  const out: PiLine[] = [];
  let clock = Date.UTC(2026, 0, 1);
  let calls = 0;
  const push = (line: { type: string; [key: string]: unknown }) => {
    if (out.length >= size) return;
    clock += between(200, 20_000);
    out.push({ ...line, id: `g${out.length}`, parentId: out.at(-1)?.id ?? null, timestamp: new Date(clock).toISOString() });
  };
  const message = (body: Record<string, unknown>) => push({ type: 'message', message: { ...body, timestamp: clock } });
  const assistant = (content: unknown[], stopReason: 'toolUse' | 'stop') =>
    message({ role: 'assistant', content, api: 'anthropic-messages', provider: 'anthropic', model: 'claude-sonnet-4-5', usage: usage(between), stopReason });

  while (out.length < size) {
    if (random() < 0.1) push({ type: 'thinking_level_change', thinkingLevel: pick(['off', 'minimal', 'low', 'medium']) });
    message({ role: 'user', content: [{ type: 'text', text: text(between(60, 450)) }] });
    const rounds = between(2, 8);
    for (let r = 0; r < rounds && out.length < size; r++) {
      const batch = Array.from({ length: between(1, 3) }, () => toolCall(`gcall${calls++}`, pick, text, between));
      const content: unknown[] = [];
      if (random() < 0.15) content.push({ type: 'thinking', thinking: text(between(80, 400)), thinkingSignature: `sig-${calls}` });
      if (random() < 0.7) content.push({ type: 'text', text: text(between(40, 300)) });
      assistant([...content, ...batch], 'toolUse');
      for (const call of batch) {
        message({ role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: text(resultLength()) }], isError: random() < 0.05 });
      }
    }
    assistant([{ type: 'text', text: text(between(200, 1500)) }], 'stop');
  }
  return out;
}

function toolCall(id: string, pick: <T>(items: readonly T[]) => T, text: (length: number) => string, between: (low: number, high: number) => number) {
  const path = `packages/${pick(WORDS)}/src/${pick(WORDS)}.ts`;
  switch (pick(['read', 'read', 'bash', 'edit'] as const)) {
    case 'read':
      return { type: 'toolCall', id, name: 'read', arguments: { path } };
    case 'bash':
      return { type: 'toolCall', id, name: 'bash', arguments: { command: `rg -n ${pick(WORDS)} packages` } };
    case 'edit':
      return { type: 'toolCall', id, name: 'edit', arguments: { path, oldText: text(between(40, 600)), newText: text(between(40, 600)) } };
  }
}

function usage(between: (low: number, high: number) => number) {
  const input = between(3, 40);
  const output = between(20, 900);
  const cacheRead = between(0, 60_000);
  return { input, output, cacheRead, cacheWrite: 0, totalTokens: input + output + cacheRead, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

/** A small, well-known 32-bit generator: the same seed, the same numbers on every machine. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = [
  'session', 'context', 'compaction', 'turn', 'model', 'tool', 'result', 'entry', 'journal', 'replay',
  'theme', 'selector', 'render', 'buffer', 'stream', 'token', 'window', 'summary', 'config', 'path',
  'import', 'export', 'const', 'function', 'return', 'await', 'async', 'string', 'number', 'array',
  'the', 'a', 'of', 'to', 'and', 'in', 'is', 'it', 'that', 'for', 'with', 'this', 'we', 'now', 'then',
  'read', 'write', 'file', 'line', 'test', 'fails', 'passes', 'check', 'change', 'keep', 'move', 'split',
];
