// Steps one turn through the pure core by hand: the shell's job, done inline.
import { start, step, type Effect } from '@tiller/core';

export function stepATurn(): { outcome: unknown; effects: string[] } {
  const at = '2026-01-01T12:00:00.000Z';
  const seen: string[] = [];
  const record = (effects: Effect[]) => {
    for (const e of effects) seen.push(e.type === 'emit' ? `emit ${e.event.type}` : e.type);
    return effects.at(-1);
  };

  let snapshot = start({ maxIterations: 4 });

  // The host sends the prompt; the core asks whether to compact first.
  let result = step(snapshot, { type: 'turn.start', turnId: 'turn-1', at, message: { role: 'user', content: 'How big is README.md?' } });
  snapshot = result.snapshot;
  const compact = record(result.effects);
  if (compact?.type !== 'maybe_compact') throw new Error('expected maybe_compact');

  // Nothing to compact: say so, with the id of the request.
  result = step(snapshot, { type: 'compaction.done', id: compact.id, at, meta: { compacted: false }, appended: [] });
  snapshot = result.snapshot;
  const call = record(result.effects);
  if (call?.type !== 'call_llm') throw new Error('expected call_llm');

  // The model asks for a tool.
  result = step(snapshot, {
    type: 'llm.done',
    id: call.id,
    at,
    stopReason: 'toolUse',
    message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'stat', args: { path: 'README.md' } }] },
  });
  snapshot = result.snapshot;
  const run = record(result.effects);
  if (run?.type !== 'run_tools') throw new Error('expected run_tools');

  // The shell runs it and reports, in any order; the core appends results in call order.
  result = step(snapshot, { type: 'tools.done', id: run.id, at, results: [{ toolCallId: 'c1', content: [{ type: 'text', text: '2,048 bytes' }], isError: false }] });
  snapshot = result.snapshot;
  const again = record(result.effects);
  if (again?.type !== 'maybe_compact') throw new Error('expected maybe_compact');

  result = step(snapshot, { type: 'compaction.done', id: again.id, at, meta: { compacted: false }, appended: [] });
  snapshot = result.snapshot;
  const second = record(result.effects);
  if (second?.type !== 'call_llm') throw new Error('expected call_llm');

  // The model answers without tools: the turn is over.
  result = step(snapshot, { type: 'llm.done', id: second.id, at, stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'It is 2,048 bytes.' }] } });
  snapshot = result.snapshot;
  record(result.effects);

  return { outcome: snapshot.context.lastOutcome, effects: seen };
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(stepATurn());
