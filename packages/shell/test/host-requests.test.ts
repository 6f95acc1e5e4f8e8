import type { Entry } from '@tiller/core';
import { createSessionLog, MemoryStore } from '@tiller/session';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { type Agent, AgentBusyError, createAgent } from '../src/index.js';

/**
 * A host that serves many clients calls the agent from requests that come at any moment: while a
 * turn starts, while its last entries are being written. These scenarios hold the store's append
 * still at such a moment (no timer: the test releases it) and call the agent there.
 */

/** A memory store whose next append, once armed, waits until the test releases it. */
class HeldStore extends MemoryStore {
  #armed = false;
  #release: (() => void) | undefined;
  #entered!: () => void;
  /** Resolves once the armed append has begun and waits. */
  readonly waiting = new Promise<void>((resolve) => (this.#entered = resolve));

  arm(): void {
    this.#armed = true;
  }

  release(): void {
    this.#release?.();
  }

  override async append(entries: readonly Entry[]): Promise<void> {
    if (this.#armed) {
      this.#armed = false;
      const held = new Promise<void>((resolve) => (this.#release = resolve));
      this.#entered();
      await held;
    }
    return super.append(entries);
  }
}

/** Lets everything already queued run (promise jobs and the mailbox's turns), so an early answer would show. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** The store holds the append that follows the agent's first model reply, until `store.release()`. */
function holdAfterFirstReply(agent: Agent, store: HeldStore): void {
  let armed = false;
  agent.subscribe((event) => {
    if (event.type === 'llm.finished' && !armed) {
      armed = true;
      store.arm();
    }
  });
}

describe('a host calling the agent from concurrent requests', () => {
  it('idle() called in the same tick as prompt() waits for that turn, not the one before', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'first' }, { text: 'second' }]) });
    await agent.prompt('one');
    const turn = agent.prompt('two');
    const idle = agent.idle();
    const outcome = await turn;
    expect(await idle).toEqual(outcome);
    await agent.close();
  });

  it('idle() called while the turn writes its last entries resolves once they are in the log', async () => {
    const store = new HeldStore();
    const session = createSessionLog(store);
    const agent = createAgent({ model: scriptedModel([{ text: 'the answer' }]), session });
    agent.subscribe((event) => {
      // The reply's entry is the next append: hold it.
      if (event.type === 'llm.finished') store.arm();
    });
    const turn = agent.prompt('question');
    await store.waiting;
    let seenAtIdle: string | undefined;
    const idle = agent.idle().then((outcome) => {
      const last = session.context().at(-1);
      seenAtIdle = last?.role;
      return outcome;
    });
    await settle();
    store.release();
    expect((await idle)?.status).toBe('completed');
    expect(seenAtIdle).toBe('assistant');
    await turn;
    await agent.close();
  });

  it('prompt() while the turn writes its last entries is refused as busy, and the turn after it holds the log alone', async () => {
    const store = new HeldStore();
    const session = createSessionLog(store);
    const agent = createAgent({ model: scriptedModel([{ text: 'first' }, { text: 'second' }, { text: 'other' }]), session });
    const other = createAgent({ model: scriptedModel([{ text: 'other agent' }]), session });
    holdAfterFirstReply(agent, store);
    const first = agent.prompt('one');
    await store.waiting;
    await expect(agent.prompt('two')).rejects.toThrow(AgentBusyError);
    store.release();
    expect((await first).status).toBe('completed');
    // The agent's next turn holds the log: the other agent is kept out while it runs.
    const second = agent.prompt('two');
    await expect(other.prompt('meanwhile')).rejects.toThrow(/another agent's turn is running/);
    expect((await second).status).toBe('completed');
    expect(session.context().map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    await agent.close();
    await other.close();
  });

  it('steer() and followUp() say whether the message reached a turn, and hand back one that reached none', async () => {
    const store = new HeldStore();
    const session = createSessionLog(store);
    const agent = createAgent({ model: scriptedModel([{ text: 'first' }, { text: 'after the steer' }, { text: 'third' }]), session });

    expect(await agent.steer('nobody listens')).toEqual({
      delivered: 'dropped',
      note: expect.objectContaining({ eventType: 'steer', reason: 'no turn is running', message: { role: 'user', content: 'nobody listens' } }),
    });
    expect(await agent.followUp('nor here')).toMatchObject({ delivered: 'dropped', note: { eventType: 'follow_up', message: { role: 'user', content: 'nor here' } } });

    holdAfterFirstReply(agent, store);
    // Taken by the running turn: it calls the model again for it.
    const first = agent.prompt('one');
    await store.waiting;
    // Sent while the turn's last step is written: it is applied after that step, when no turn runs, so it is dropped, and said so.
    const late = agent.steer('too late');
    store.release();
    expect(await late).toMatchObject({ delivered: 'dropped', note: { reason: 'no turn is running', message: { content: 'too late' } } });
    await first;

    const second = agent.prompt('two');
    expect(await agent.steer('in time')).toEqual({ delivered: 'turn' });
    expect((await second).status).toBe('completed');
    expect(session.context().map((m) => (typeof m.content === 'string' ? m.content : m.role))).toEqual(['one', 'assistant', 'two', 'in time', 'assistant']);
    await agent.close();
  });
});
