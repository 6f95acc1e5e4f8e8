import { describe, expect, it } from 'vitest';
import { parsePath, type AgentPath } from './index.js';

const good = (): AgentPath => ({
  name: 'x',
  iterations: 1,
  steps: [
    { step: { do: 'prompt' }, state: 'steering' },
    { step: { do: 'boundary' }, state: 'calling' },
    { step: { do: 'reply', reply: 'tool_call', calls: [{ tool: 'read_note', args: { title: 'a' } }], retried: [] }, state: 'tools.running' },
    { step: { do: 'tools', outcome: 'ok' }, state: 'steering' },
    { step: { do: 'boundary' }, state: 'calling' },
    { step: { do: 'reply', reply: 'text', calls: [], retried: [] }, state: 'idle' },
  ],
});

/** The good path with step `n` (from 1) changed by `edit`. */
const withStep = (n: number, edit: (step: Record<string, unknown>) => void): AgentPath => {
  const path = good();
  edit(path.steps[n - 1]!.step as unknown as Record<string, unknown>);
  return path;
};

describe('parsePath', () => {
  it('takes a good script back, as an object or as its JSON text', () => {
    expect(parsePath(good())).toEqual(good());
    expect(parsePath(JSON.stringify(good()))).toEqual(good());
  });

  it("keeps what a call's policy was declared, so a saved script is checked for it as the generated path was", () => {
    const declared = withStep(3, (s) => { s.calls = [{ tool: 'read_note', args: { title: 'a' }, policy: 'deny' }]; });
    const parsed = parsePath(JSON.stringify(declared));
    expect(parsed.steps[2]!.step).toMatchObject({ calls: [{ tool: 'read_note', policy: 'deny' }] });
  });

  it.each([
    ['a reply without calls and retried', withStep(3, (s) => { delete s.calls; delete s.retried; }), /parsePath: step 3 \(reply\) is malformed:[\s\S]*calls[\s\S]*retried/],
    ['a tool outcome that does not exist', withStep(4, (s) => { s.outcome = 'explode'; }), /parsePath: step 4 \(tools\) is malformed:[\s\S]*"ok"\|"throw"\|"timeout"[\s\S]*outcome/],
    ['a reply kind that does not exist', withStep(6, (s) => { s.reply = 'poem'; }), /parsePath: step 6 \(reply\) is malformed:[\s\S]*reply/],
    ['a retried fault that does not exist', withStep(6, (s) => { s.retried = ['overflow']; }), /parsePath: step 6 \(reply\) is malformed:[\s\S]*retried/],
    ['a call without its tool', withStep(3, (s) => { s.calls = [{ args: {} }]; }), /parsePath: step 3 \(reply\) is malformed:[\s\S]*calls\[0\]\.tool/],
    ['a call whose declared policy does not exist', withStep(3, (s) => { s.calls = [{ tool: 'read_note', args: {}, policy: 'maybe' }]; }), /parsePath: step 3 \(reply\) is malformed:[\s\S]*calls\[0\]\.policy/],
    ['a call whose args are not an object', withStep(3, (s) => { s.calls = [{ tool: 'read_note', args: 'a' }]; }), /parsePath: step 3 \(reply\) is malformed:[\s\S]*calls\[0\]\.args/],
    ['a tool call reply with two calls', withStep(3, (s) => { s.calls = [{ tool: 'a', args: {} }, { tool: 'b', args: {} }]; }), /parsePath: step 3 \(reply\) is malformed: a reply:tool_call makes 1 call, this one lists 2/],
    ['a text reply with a call', withStep(6, (s) => { s.calls = [{ tool: 'a', args: {} }]; }), /parsePath: step 6 \(reply\) is malformed: a reply:text makes 0 calls, this one lists 1/],
    ['a failure that does not exist', withStep(6, (s) => { s.do = 'fail'; s.error = 'bogus'; }), /parsePath: step 6 \(fail\) is malformed:[\s\S]*error/],
    ['an approval decision that does not exist', withStep(4, (s) => { s.do = 'approve'; s.decision = 'maybe'; delete s.outcome; }), /parsePath: step 4 \(approve\) is malformed:[\s\S]*decision/],
    ['a field a step does not have', withStep(1, (s) => { s.reply = 'text'; }), /parsePath: step 1 \(prompt\) is malformed:[\s\S]*reply/],
    ['a step that does not exist', withStep(2, (s) => { s.do = 'dance'; }), /parsePath: step 2 is malformed: "dance" is not a step; the steps are prompt, steer, follow_up, abort, boundary, reply, fail, policy_asks, tools, approve, crash/],
  ])('refuses %s, naming the step and the field', (_, path, message) => {
    expect(() => parsePath(path)).toThrow(TypeError);
    expect(() => parsePath(path)).toThrow(message);
  });

  it('refuses a state the turn does not have', () => {
    const path = good();
    path.steps[2]!.state = 'tools.runing';
    expect(() => parsePath(path)).toThrow(/parsePath: step 3 \(reply\) leads to "tools\.runing", which is not a state of the turn; the states are [^\n]*tools\.running/);
  });

  it.each([
    ['negative iterations', { ...good(), iterations: -3 }, /parsePath: iterations must be a whole number of model calls \(0 or more\), got -3/],
    ['fractional iterations', { ...good(), iterations: 1.5 }, /parsePath: iterations must be a whole number of model calls \(0 or more\), got 1\.5/],
    ['a name that is not text', { ...good(), name: 7 }, /parsePath: the name of a path is text, got 7/],
    ['no steps', { name: 'x', iterations: 1 }, /parsePath: a path is \{name, iterations, steps: \[\{step, state\}\]\}/],
    ['a step that is not {step, state}', { ...good(), steps: [{ do: 'prompt' }] }, /parsePath: step 1 of the script is not \{step: \{do, \.\.\.\}, state\}/],
    ['JSON text that does not parse', '{"steps": [', /parsePath: the script is not JSON/],
  ])('refuses %s', (_, script, message) => {
    expect(() => parsePath(script as never)).toThrow(message);
  });
});
