import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/agent-event.js';
import { createEventHub } from './event-hub.js';

const event = (n: number): AgentEvent => ({ type: 'shell.error', where: 'test', message: `event ${n}`, at: '2026-01-01T00:00:00.000Z' });

describe('createEventHub', () => {
  it('delivers to listeners and iterators while they are there, and to nobody after', async () => {
    const hub = createEventHub(() => event(0));
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
    const hub = createEventHub(() => event(0));
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

  it('reports a listener that throws on every event once per event, even when the report goes to it too', () => {
    const reports: unknown[] = [];
    const hub = createEventHub((error) => {
      reports.push(error);
      return event(100 + reports.length);
    });
    const heard: string[] = [];
    hub.subscribe(() => {
      throw new Error('broken listener');
    });
    hub.subscribe((e) => heard.push(e.type === 'shell.error' ? e.message : e.type));
    hub.publish(event(1));
    hub.publish(event(2));
    expect(reports.map((e) => (e as Error).message)).toEqual(['broken listener', 'broken listener']);
    // The report is delivered while the event still is: the later listener hears it first.
    expect(heard).toEqual(['event 101', 'event 1', 'event 102', 'event 2']);
  });

  it('reports another listener that throws only while a report is delivered', () => {
    const reports: string[] = [];
    const hub = createEventHub((error) => {
      reports.push((error as Error).message);
      return event(100 + reports.length);
    });
    hub.subscribe(() => {
      throw new Error('fails on everything');
    });
    hub.subscribe((e) => {
      if (e.type === 'shell.error' && e.message === 'event 101') throw new Error('fails on the report');
    });
    hub.publish(event(1));
    // The first listener's throw, then the second's on the report of it (event 101); the first
    // listener's throws while its report, or the second's, is delivered are not reported again.
    expect(reports).toEqual(['fails on everything', 'fails on the report']);
  });

  it('reports each of two listeners that throw on every event once per event, the reports of their failures included', () => {
    const reports: string[] = [];
    const hub = createEventHub((error) => {
      reports.push((error as Error).message);
      return event(100 + reports.length);
    });
    hub.subscribe(() => {
      throw new Error('first');
    });
    hub.subscribe(() => {
      throw new Error('second');
    });
    hub.publish(event(1));
    // The first fails on event 1 (report 101), the second on 101 (102); after that each has been
    // reported for event 1, so neither is again: not on 102, nor the second on event 1 itself.
    expect(reports).toEqual(['first', 'second']);
    hub.publish(event(2));
    expect(reports).toEqual(['first', 'second', 'first', 'second']);
  });

  it('reports each of eight listeners that fail on every event once per event, not once per chain of reports', () => {
    let reports = 0;
    const hub = createEventHub(() => event(100 + ++reports));
    for (let i = 0; i < 8; i++) {
      hub.subscribe(() => {
        throw new Error(`listener ${i}`);
      });
    }
    hub.publish(event(1));
    expect(reports).toBe(8);
  });

  it('reports an async listener whose promise rejects, once per event, and lets no rejection go unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const reports: string[] = [];
      const hub = createEventHub((error) => {
        reports.push((error as Error).message);
        return event(100 + reports.length);
      });
      hub.subscribe(async () => {
        throw new Error('webhook is down');
      });
      hub.publish(event(1));
      hub.publish(event(2));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(reports).toEqual(['webhook is down', 'webhook is down']);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('refuses a listener that is not a function when it is subscribed, saying what it got', () => {
    const hub = createEventHub(() => event(0));
    expect(() => hub.subscribe(undefined as never)).toThrow(new TypeError('subscribe: the listener must be a function, got undefined'));
    expect(() => hub.subscribe(null as never)).toThrow('got null');
    expect(() => hub.subscribe({} as never)).toThrow('got object');
  });
});
