/**
 * A long tool loop kept under a 32,000-token window by a WindowManager that summarizes between
 * tool rounds. Run it with `pnpm tsx packages/compaction/examples/long-tool-loop.ts`; a test runs
 * it too and checks what it prints.
 */
import { buildContext, type Entry, type Message } from '@tiller/core';
import { type CompactionAcc, createTokenLedger, type Summarizer, WindowManager } from '../src/index.js';

/**
 * Stands in for a real model (an AI SDK model, a local one): it lists the files the transcript
 * shows being read, under the headings the prompt asks for.
 */
const localSummarizer: Summarizer = {
  model: 'example/local-summarizer',
  contextWindow: 16_000,
  async summarize({ prompt }) {
    const files = [...prompt.matchAll(/ASSISTANT CALLS read \{"path":"([^"]+)"\}/g)].map((m) => m[1]);
    const earlier = /<earlier-notes>[\s\S]*?Done\n([\s\S]*?)\n### In Progress/.exec(prompt)?.[1] ?? '';
    const done = [earlier, ...files.map((f) => `- read ${f}`)].filter(Boolean).join('\n');
    return { text: `## Goal\nRefactor the parser.\n## Progress\n### Done\n${done}\n### In Progress\n- reading more files` };
  },
};

export async function runExample(log: (line: string) => void = console.log): Promise<readonly Entry[]> {
  let counter = 0;
  const newId = () => `e${++counter}`;
  const manager = WindowManager({
    strategy: 'summarize',
    contextWindow: 32_000,
    reserveTokens: 4_000,
    keepRecentTokens: 8_000,
    summarizer: localSummarizer,
    newId,
    now: () => new Date('2026-03-01T12:00:00Z'),
  });

  // The shell's side: a path, a ledger fed with every appended entry, a compactor at each boundary.
  let acc: CompactionAcc = { path: [], ledger: createTokenLedger() };
  const append = (message: Message) => {
    const full: Entry = { kind: 'message', message, id: newId(), parentId: acc.path.at(-1)?.id ?? null, at: '2026-03-01T12:00:00.000Z' };
    acc.ledger!.append(full);
    acc = { path: [...acc.path, full], ledger: acc.ledger };
  };

  append({ role: 'user', content: 'Refactor the parser; read every module first.' });
  for (let round = 0; round < 70; round++) {
    append({
      role: 'assistant',
      content: [{ type: 'thinking', thinking: 'Next module.' }, { type: 'toolCall', id: `c${round}`, name: 'read', args: { path: `src/parser/m${round}.ts` } }],
    });
    append({ role: 'toolResult', toolCallId: `c${round}`, toolName: 'read', content: [{ type: 'text', text: 'x'.repeat(4_000) }], isError: false });

    const { acc: next, meta } = await manager.maybeCompact(acc, { model: 'example', promptTokens: 300, midRound: true });
    if (meta.compacted) {
      log(`round ${round + 1}: compacted ${meta.tokensBefore} -> ${meta.tokensAfter} tokens, ${meta.dropped.length} entries left the context`);
    } else if (meta.error) {
      log(`round ${round + 1}: compaction failed: ${meta.error.message}`);
    }
    acc = next;
  }

  const context = buildContext(acc.path);
  log(`log: ${acc.path.length} entries; context: ${context.length} messages, about ${acc.ledger!.tokens + 300} tokens`);
  const first = context[0]!;
  const summary = first.role === 'user' && typeof first.content !== 'string' && first.content[0]?.type === 'text' ? first.content[0].text : '';
  const read = summary.split('\n').filter((line) => line.startsWith('- read '));
  log(`the summary lists ${read.length} modules read, ${read[0]?.slice(7)} to ${read.at(-1)?.slice(7)}`);
  return acc.path;
}

if (import.meta.url === `file://${process.argv[1]}`) await runExample();
