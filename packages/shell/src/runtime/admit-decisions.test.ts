import type { ApprovalDecision } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { admitDecisions, type ParkedDecisions } from './admit-decisions.js';

const allow = (toolCallId: string): ApprovalDecision => ({ toolCallId, decision: 'allow' });
const deny = (toolCallId: string, rationale = 'no'): ApprovalDecision => ({ toolCallId, decision: 'deny', rationale });
const parked = (decided: ApprovalDecision[] = []): ParkedDecisions => ({ waiting: ['a', 'b'], decided: new Map(decided.map((d) => [d.toolCallId, d])) });

describe('admitDecisions', () => {
  it('admits one decision a waiting call, in list order, and refuses nothing', () => {
    expect(admitDecisions(parked(), [deny('b'), allow('a')])).toEqual({ admitted: [deny('b'), allow('a')], refused: [] });
  });

  it('takes the same decision again, before or in the same list, as changing nothing: neither admitted nor refused', () => {
    expect(admitDecisions(parked([allow('a'), deny('b', 'why')]), [allow('a'), deny('b', 'why')])).toEqual({ admitted: [], refused: [] });
    expect(admitDecisions(parked(), [deny('a'), deny('a')])).toEqual({ admitted: [deny('a')], refused: [] });
  });

  it('refuses an entry that is no decision, naming its place in the list, and still takes the rest', () => {
    const { admitted, refused } = admitDecisions(parked(), [allow('a'), { toolCallId: 'b', decision: 'maybe' }, null]);
    expect(admitted).toEqual([allow('a')]);
    expect(refused).toMatchObject([
      { kind: 'invalid', index: 1, message: expect.stringMatching(/^decision 1 is not a valid decision:\n/) },
      { kind: 'invalid', index: 2, message: expect.stringMatching(/^decision 2 is not a valid decision:\n/) },
    ]);
  });

  it('refuses a decision for a call the batch did not ask about, saying which wait', () => {
    expect(admitDecisions(parked(), [allow('zzz'), allow('b')])).toEqual({
      admitted: [allow('b')],
      refused: [{ kind: 'not_waiting', index: 0, toolCallId: 'zzz', message: 'tool call "zzz" is not waiting for approval (waiting: a, b)' }],
    });
  });

  it('refuses a decision that changes one the batch took before', () => {
    expect(admitDecisions(parked([allow('a')]), [deny('a'), allow('b')])).toEqual({
      admitted: [allow('b')],
      refused: [{ kind: 'changed', index: 0, toolCallId: 'a', earlier: allow('a'), message: 'tool call "a" is already decided (allow); a decision cannot be changed' }],
    });
    // A deny with other words is another decision.
    expect(admitDecisions(parked([deny('a', 'one')]), [deny('a', 'two')]).refused).toMatchObject([{ kind: 'changed', message: 'tool call "a" is already decided (deny); a decision cannot be changed' }]);
  });

  it('refuses a second, different decision for one call in one list; the first counts', () => {
    expect(admitDecisions(parked(), [allow('a'), allow('b'), deny('a')])).toEqual({
      admitted: [allow('a'), allow('b')],
      refused: [{ kind: 'twice', index: 2, toolCallId: 'a', first: 0, message: 'tool call "a" is decided twice in one call, differently (decisions 0 and 2)' }],
    });
  });

  it('with nothing parked admits nothing and says so last, after the entries that are no decision', () => {
    expect(admitDecisions(null, [allow('a')])).toEqual({ admitted: [], refused: [{ kind: 'none_waiting', message: 'no tool call is waiting for approval' }] });
    expect(admitDecisions(null, ['yes']).refused.map((r) => r.kind)).toEqual(['invalid', 'none_waiting']);
  });

  it('refuses every bad entry of one list, each once, in list order', () => {
    const { refused } = admitDecisions(parked([allow('a')]), [deny('a'), 'junk', allow('zzz'), allow('b'), deny('b')]);
    expect(refused.map((r) => [r.kind, 'index' in r ? r.index : undefined])).toEqual([
      ['changed', 0],
      ['invalid', 1],
      ['not_waiting', 2],
      ['twice', 4],
    ]);
  });
});
