import { describe, expect, it } from 'vitest';
import { connect } from './client.js';
import { DurableError } from './errors/durable-error.js';
import { DurableOptionsError } from './errors/durable-options-error.js';
import { InvalidMessageError } from './errors/invalid-message-error.js';

describe('connect', () => {
  // Nothing listens on port 9: a message that is checked first never gets that far.
  const session = connect({ ingressUrl: 'http://127.0.0.1:9/' }).session('s');

  it('refuses a message that is not a user message, saying where, before any request', async () => {
    const refused = session.steer({ role: 'user', content: 42 } as never);
    await expect(refused).rejects.toThrow(InvalidMessageError);
    expect(DurableError.isInstance(await refused.catch((e: unknown) => e))).toBe(true);
    await expect(refused).rejects.toMatchObject({ code: 'invalid_message', message: expect.stringMatching(/^session\.steer: invalid message:/) });
    await expect(session.start({ role: 'assistant' } as never)).rejects.toThrow(/session\.prompt: invalid message/);
  });

  it('refuses a malformed approval before any request, naming the decision and what is wrong', async () => {
    for (const junk of [null, 'yes', { toolCallId: 'c1', decision: 'maybe' }, { toolCallId: 'c1' }]) {
      const refused = session.approve(junk as never);
      await expect(refused).rejects.toThrow(InvalidMessageError);
      await expect(refused).rejects.toThrow(/^session\.approve: decision 0 is not a valid decision:/);
    }
    await expect(session.approve({ toolCallId: 'c1', decision: 'maybe' } as never)).rejects.toThrow(/allow|deny[\s\S]*at decision/);
    const second = session.approve([{ toolCallId: 'a', decision: 'allow' }, { toolCallId: 'b', decision: 'deny' } as never]);
    await expect(second).rejects.toThrow(/^session\.approve: decision 1 is not a valid decision:[\s\S]*rationale/);
  });

  it('refuses a session id or a turn id that is not one, naming the argument, before any request', async () => {
    const client = connect({ ingressUrl: 'http://127.0.0.1:9/' });
    for (const id of [undefined, '', 5, null]) {
      expect(() => client.session(id as never)).toThrow(DurableOptionsError);
      expect(() => client.session(id as never)).toThrow(/^client\.session: invalid session id: expected a non-empty string/);
    }
    expect(() => client.session('half \ud800')).toThrow(/^client\.session: invalid session id: expected well-formed text/);
    expect(client.session('a/b?c#d é').id).toBe('a/b?c#d é');
    for (const turnId of [5, '', 'two\nlines', 'ü']) {
      const refused = session.start('hi', { turnId: turnId as never });
      await expect(refused).rejects.toThrow(DurableOptionsError);
      await expect(refused).rejects.toThrow(/^session\.start: invalid options:[\s\S]*at turnId/);
    }
    await expect(session.start('hi', { turnld: 'typo' } as never)).rejects.toThrow(/session\.start: invalid options:[\s\S]*turnld/);
  });

  it('says which call failed when the ingress cannot be reached', async () => {
    await expect(session.pendingApprovals()).rejects.toThrow(/^POST \/TillerSession\/s\/pendingApprovals: the Restate ingress at http:\/\/127\.0\.0\.1:9 cannot be reached/);
  });
});
