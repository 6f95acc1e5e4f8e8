import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agent-event.js';
import { createEventHub } from './event-hub.js';

const event = (n: number): AgentEvent => ({ type: 'shell.error', where: 'test', message: `event ${n}`, at: '2026-01-01T00:00:00.000Z' });

describe('createEventHub', () => {
  it('is listening while a listener or an iterator is there, and delivers to both', async () => {
    const hub = createEventHub(() => undefined);
    expect(hub.listening).toBe(false);
    const heard: AgentEvent[] = [];
    const unsubscribe = hub.subscribe((e) => heard.push(e));
    expect(hub.listening).toBe(true);
    hub.publish(event(1));
    unsubscribe();
    expect(hub.listening).toBe(false);
    const iterator = hub.iterate();
    expect(hub.listening).toBe(true);
    hub.publish(event(2));
    expect((await iterator.next()).value).toEqual(event(2));
    await iterator.return!();
    expect(hub.listening).toBe(false);
    expect(heard).toEqual([event(1)]);
  });

  it('delivers an event to the listeners there when it was published, even if one of them changes the list', () => {
    const hub = createEventHub(() => undefined);
    const heard: string[] = [];
    const second = () => heard.push('second');
    hub.subscribe(() => {
      heard.push('first');
      hub.subscribe(() => heard.push('late'));
      unsubscribeSecond();
    });
    const unsubscribeSecond = hub.subscribe(second);
    hub.publish(event(1));
    expect(heard).toEqual(['first', 'second']);
  });
});
