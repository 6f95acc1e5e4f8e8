import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/agent-event.js';
import { createEventHub } from './event-hub.js';

const event = (n: number): AgentEvent => ({ type: 'shell.error', where: 'test', message: `event ${n}`, at: '2026-01-01T00:00:00.000Z' });

describe('createEventHub', () => {
  it('delivers to listeners and iterators while they are there, and to nobody after', async () => {
    const hub = createEventHub(() => undefined);
    const heard: AgentEvent[] = [];
    const unsubscribe = hub.subscribe((e) => heard.push(e));
    hub.publish(event(1));
    unsubscribe();
    const iterator = hub.iterate();
    hub.publish(event(2));
    expect((await iterator.next()).value).toEqual(event(2));
    await iterator.return!();
    hub.publish(event(3));
    expect(heard).toEqual([event(1)]);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
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
