import { createSessionLog, MemoryStore } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import { SessionBusyError } from '../errors/session-busy-error.js';
import { sessionClaim } from './session-claim.js';

describe('sessionClaim', () => {
  it('lets one holder at a time take a log; the others are refused until it lets go', () => {
    const log = createSessionLog(new MemoryStore());
    const a = sessionClaim(log);
    const b = sessionClaim(log);
    a.take('agent.prompt');
    a.take('agent.prompt');
    expect(() => b.take('agent.prompt')).toThrow(SessionBusyError);
    expect(() => b.take('resumeAgent')).toThrow(/^resumeAgent: another agent's turn is running on this session log/);
    // Letting go of a log one does not hold changes nothing.
    b.release();
    expect(() => b.take('agent.prompt')).toThrow(SessionBusyError);
    a.release();
    b.take('agent.prompt');
    expect(() => a.take('agent.prompt')).toThrow(SessionBusyError);
  });

  it('keeps logs apart: a hold on one log does not touch another', () => {
    const one = sessionClaim(createSessionLog(new MemoryStore()));
    const other = sessionClaim(createSessionLog(new MemoryStore()));
    one.take('agent.prompt');
    expect(() => other.take('agent.prompt')).not.toThrow();
  });
});
