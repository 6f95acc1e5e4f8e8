import { describe, expect, it } from 'vitest';
import { start, step } from '../turn/step.js';
import type { Entry } from '../schema/entry.js';
import { countTurns } from './count-turns.js';

const user = (id: string, text: string): Entry => ({ id, parentId: null, at: 't', kind: 'message', message: { role: 'user', content: text } });

describe('countTurns', () => {
  it('counts the prompts of the turns the core ran, not the steers and follow-ups delivered inside them', () => {
    let snapshot = start();
    const send = (input: unknown) => {
      const result = step(snapshot, input);
      snapshot = result.snapshot;
      return result.effects;
    };
    const pendingId = () => snapshot.context.turn!.pending!.id;
    for (const turnId of ['a', 'b']) {
      send({ type: 'turn.start', turnId, at: 't', message: { role: 'user', content: `prompt ${turnId}` } });
      send({ type: 'steer', at: 't', message: { role: 'user', content: 'look again' } });
      send({ type: 'follow_up', at: 't', message: { role: 'user', content: 'and then' } });
      send({ type: 'compaction.done', id: pendingId(), at: 't', meta: { compacted: false }, appended: [] });
      send({ type: 'llm.done', id: pendingId(), at: 't', stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'ok' }] } });
      send({ type: 'compaction.done', id: pendingId(), at: 't', meta: { compacted: false }, appended: [] });
      send({ type: 'llm.done', id: pendingId(), at: 't', stopReason: 'stop', message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] } });
      expect(snapshot.context.turn).toBeNull();
    }
    const entries = snapshot.context.entries.toArray();
    const origins = entries.filter((e) => e.kind === 'message' && e.message.role === 'user').map((e) => (e.kind === 'message' ? e.origin : undefined));
    expect(origins).toEqual(['prompt', 'steer', 'follow_up', 'prompt', 'steer', 'follow_up']);
    expect(countTurns(entries)).toBe(2);
  });

  it('counts every user message that came from elsewhere (an import, a host) as a turn', () => {
    expect(countTurns([user('1', 'hi'), user('2', 'again')])).toBe(2);
  });
});
