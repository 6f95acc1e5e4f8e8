import type { Effect } from '@tiller/core';
import { createTurnDriver, type TurnDriver } from '@tiller/testing';

/** How the demo prints one effect: a line each, blocking effects marked. */
function describeEffect(effect: Effect): string {
  switch (effect.type) {
    case 'persist':
      return `persist   ${effect.entries.map((e) => `${e.id} (${e.kind === 'message' ? e.message.role : e.kind})`).join(', ')}`;
    case 'emit':
      return `emit      ${effect.event.type}`;
    case 'maybe_compact':
      return `▶ maybe_compact  ${effect.id}  reason=${effect.reason} midRound=${effect.midRound} force=${effect.force}`;
    case 'call_llm':
      return `▶ call_llm       ${effect.id}  ${effect.context.length} messages${effect.final ? '  (final: no tools)' : ''}`;
    case 'run_tools':
      return `▶ run_tools      ${effect.id}  ${effect.calls.map((c) => `${c.name}(${JSON.stringify(c.args)})`).join(', ')}`;
    case 'request_approval':
      return `▶ request_approval  ${effect.id}  ${effect.calls.map((c) => c.name).join(', ')}`;
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown effect ${JSON.stringify(unknown)}`);
    }
  }
}

function describeInput(event: unknown): string {
  const e = event as Record<string, unknown>;
  const id = e.callId ?? e.batchId ?? e.compactionId ?? e.turnId ?? '';
  return `${String(e.type)}${id ? `  (${String(id)})` : ''}`;
}

/**
 * A scripted turn of a coding agent, stepped through the pure core: two tool rounds (the
 * first with two calls in parallel), a steer that arrives while the model works, a compaction
 * the compactor appends mid-round, and the final answer. Prints every input, state and effect.
 */
export function runDemo(write: (line: string) => void = console.log): TurnDriver {
  const d = createTurnDriver({ maxIterations: 8 });
  let printed = 0;
  const show = (note: string) => {
    for (const s of d.steps.slice(printed)) {
      write('');
      write(`● ${describeInput(s.event)}${note ? `  — ${note}` : ''}`);
      write(`  state: ${JSON.stringify(s.value)}`);
      for (const effect of s.effects) write(`    ${describeEffect(effect)}`);
      if (s.effects.length === 0) write('    (no effects: queued or ignored)');
    }
    printed = d.steps.length;
  };

  write('Tiller demo: one scripted turn stepped through the pure core (@tiller/core).');
  write('Each ● is an input; ▶ marks the effect the turn then waits on.');

  d.startTurn('Find where the session file is parsed and add a test for torn lines.', 'demo-turn');
  show('the host sends a prompt');
  d.compactionDone();
  show('the compactor finds nothing to do');
  d.steer('Keep the test under 30 lines, please.');
  show('the user steers while the model is thinking');
  d.toolCalls({ id: 'call-1', name: 'grep', args: { pattern: 'JSON.parse', path: 'packages/session' } }, { id: 'call-2', name: 'read', args: { path: 'docs/session.md' } });
  show('the model asks for two tools at once');
  d.toolsDone([
    { toolCallId: 'call-2', content: [{ type: 'text', text: '# The session log …' }], isError: false },
    { toolCallId: 'call-1', content: [{ type: 'text', text: 'src/jsonl-store.ts:88: JSON.parse(line)' }], isError: false },
  ]);
  show('the tools finish in any order; results are appended in call order');
  const path = d.snapshot.context.entries;
  d.compactionDone({
    meta: { compacted: true, strategy: 'summarize', tokensBefore: 182_000, tokensAfter: 41_000 },
    appended: [
      {
        id: 'compaction-1',
        parentId: path.last()!.id,
        at: d.now(),
        kind: 'compaction',
        summary: 'Goal: test torn lines in the JSONL store. Found the parser in src/jsonl-store.ts.',
        firstKeptEntryId: path.at(1)!.id,
        tokensBefore: 182_000,
        tokensAfter: 41_000,
        stripThinking: true,
        provenance: { strategy: 'summarize', midRound: true },
      },
    ],
  });
  show('the compactor summarizes mid-round; the steer joins the context here');
  d.toolCalls({ id: 'call-3', name: 'write', args: { path: 'src/jsonl-store.test.ts' } });
  show('the model writes the test');
  d.toolsDone();
  show('');
  d.compactionDone();
  show('');
  d.reply('Added a 24-line test that cuts the file at every byte of its last line.');
  show('the model answers without tools: the turn ends');

  write('');
  write(`outcome: ${JSON.stringify(d.snapshot.context.lastOutcome)}`);
  write(`the model saw ${d.snapshot.context.view.length} messages; the log holds ${d.snapshot.context.entries.length} entries (nothing was deleted).`);
  return d;
}
