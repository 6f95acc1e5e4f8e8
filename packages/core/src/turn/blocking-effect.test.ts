import { expect, it } from 'vitest';
import { isBlockingEffect } from './effects.js';
import { pendingEffect } from './blocking-effect.js';
import { restoreSnapshot, serializeSnapshot } from './snapshot.js';
import { start, step } from './step.js';

const at = '2026-01-01T00:00:00.000Z';
const user = (content: string) => ({ role: 'user' as const, content });

it('a restored snapshot names the effect its turn waits on, as the step that issued it did', () => {
  let snapshot = start({ maxIterations: 3 });
  expect(pendingEffect(snapshot)).toBeUndefined();
  const answer = (make: (id: string) => unknown) => {
    const waited = pendingEffect(snapshot);
    const { snapshot: next, effects } = step(snapshot, make(waited?.id ?? ''));
    snapshot = restoreSnapshot(serializeSnapshot(next));
    // The effect a host would have to answer after a restart is the one the step issued.
    expect(pendingEffect(snapshot)).toEqual(effects.filter(isBlockingEffect).at(-1));
    return effects;
  };
  answer(() => ({ type: 'turn.start', turnId: 't1', at, message: user('hi') }));
  expect(pendingEffect(snapshot)?.type).toBe('maybe_compact');
  answer((id) => ({ type: 'compaction.done', id, at, meta: { compacted: false }, appended: [] }));
  const call = pendingEffect(snapshot);
  expect(call?.type === 'call_llm' && Array.from(call.context)).toEqual([{ role: 'user', content: 'hi' }]);
  answer((id) => ({
    type: 'llm.done', id, at, stopReason: 'toolUse',
    message: { role: 'assistant', content: [{ type: 'toolCall', id: 'c1', name: 'ls', args: {} }, { type: 'toolCall', id: 'c2', name: 'rm', args: {} }] },
  }));
  expect(pendingEffect(snapshot)).toMatchObject({ type: 'run_tools', calls: [{ id: 'c1' }, { id: 'c2' }] });
  answer((id) => ({ type: 'approval.needed', id, at, toolCallIds: ['c2'] }));
  expect(pendingEffect(snapshot)).toMatchObject({ type: 'request_approval', calls: [{ id: 'c2' }] });
  answer((id) => ({ type: 'approval.decided', id, at, decisions: [{ toolCallId: 'c2', decision: 'deny', rationale: 'no' }] }));
  expect(pendingEffect(snapshot)).toMatchObject({ type: 'run_tools', decisions: [{ toolCallId: 'c2', decision: 'deny' }] });
  answer((id) => ({ type: 'tools.done', id, at, results: [{ toolCallId: 'c1', content: [{ type: 'text', text: 'a b' }], isError: false }] }));
  answer((id) => ({ type: 'compaction.done', id, at, meta: { compacted: false }, appended: [] }));
  answer((id) => ({ type: 'llm.done', id, at, stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } }));
  expect(snapshot.value).toBe('idle');
  expect(pendingEffect(snapshot)).toBeUndefined();
});
