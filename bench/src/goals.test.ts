import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scalingOf, verdictsOf } from './goals.js';
import { ONE_PASS } from './one-pass.js';
import { OPERATIONS, isRate, type Measurement, type OperationId, type Unit } from './measurement.js';

const row = (operation: Measurement['operation'], size: number, tiller: number, reference?: number, name = 'pi'): Measurement => ({
  operation,
  size,
  unit: 'ms',
  tiller,
  ...(reference === undefined ? {} : { reference: { name, value: reference } }),
});

describe('verdictsOf', () => {
  it('holds opening within 1.1x of plain parsing', () => {
    expect(verdictsOf(row('open-floor', 1000, 1.1, 1, 'floor'), [])).toEqual([{ goal: 'within 1.1x of plain parsing', met: true }]);
    expect(verdictsOf(row('open-floor', 1000, 1.2, 1, 'floor'), [])[0]?.met).toBe(false);
  });

  it('asks 10x over pi for context and preparation only at 100k entries', () => {
    expect(verdictsOf(row('context', 10_000, 5, 6), [])).toEqual([]);
    expect(verdictsOf(row('context', 100_000, 9, 100), [])[0]?.met).toBe(true);
    expect(verdictsOf(row('prepare', 100_000, 11, 100), [])[0]?.met).toBe(false);
  });

  it('judges the boundary decision O(1) against the smallest session', () => {
    const all = [row('decision', 1000, 0.001, 1), row('decision', 100_000, 0.0019, 100), row('decision', 10_000, 0.0025, 10)];
    expect(verdictsOf(all[1]!, all)[0]?.met).toBe(true);
    expect(verdictsOf(all[2]!, all)[0]?.met).toBe(false);
  });

  it('judges step against the bare transition and against its own time at the smallest session, apart', () => {
    const all = [row('step', 1000, 50, 40, 'transition'), row('step', 100_000, 70, 40, 'transition'), row('step', 10_000, 95, 40, 'transition')];
    const met = (m: Measurement) => verdictsOf(m, all).map((v) => [v.goal, v.met]);
    expect(met(all[0]!)).toEqual([
      ['at most 2x a bare transition', true],
      ["flat: at most 2x the smallest session's", true],
    ]);
    // Over 2x the transition, under 2x the smallest: one goal met, the other not.
    expect(met(all[2]!)).toEqual([
      ['at most 2x a bare transition', false],
      ["flat: at most 2x the smallest session's", true],
    ]);
    const steep = [all[0]!, row('step', 100_000, 101, 80, 'transition')];
    expect(verdictsOf(steep[1]!, steep).map((v) => v.met)).toEqual([true, false]);
  });

  it('holds replay per event to 2x a bare transition and resume faster than a full parse', () => {
    expect(verdictsOf(row('replay', 1000, 19, 10, 'bare transition()'), [])).toEqual([{ goal: 'at most 2x a bare transition', met: true }]);
    expect(verdictsOf(row('replay', 1000, 21, 10, 'bare transition()'), [])[0]?.met).toBe(false);
    expect(verdictsOf(row('resume', 100_000, 20, 900, 'floor'), [])[0]?.met).toBe(true);
    expect(verdictsOf(row('resume', 100_000, 900, 900, 'floor'), [])[0]?.met).toBe(false);
  });

  it("wants the shell's overhead per model call ahead of pi-agent-core from 10k messages", () => {
    const call = (size: number, tiller: number, piAgentCore: number) => row('agent-call', size, tiller, piAgentCore, 'pi-agent-core');
    const all = [call(0, 0.1, 0.02), call(1000, 0.12, 0.05), call(10_000, 0.15, 0.4), call(100_000, 0.21, 9)];
    // Behind pi-agent-core over short histories: no goal says otherwise.
    expect(verdictsOf(all[1]!, all)).toEqual([]);
    expect(verdictsOf(all[2]!, all)).toEqual([{ goal: 'ahead of pi-agent-core', met: true }]);
    expect(verdictsOf(call(10_000, 0.5, 0.4), all)).toEqual([{ goal: 'ahead of pi-agent-core', met: false }]);
  });

  it("holds the shell's overhead per model call flat: at most 2x the same shell over an empty history in the same process", () => {
    const flat = (tiller: number, empty: number) => row('agent-call-flat', 100_000, tiller, empty, 'the same over an empty history');
    expect(verdictsOf(flat(0.3, 0.2), [])).toEqual([{ goal: 'flat: at most 2x its own over an empty history', met: true }]);
    expect(verdictsOf(flat(0.41, 0.2), [])[0]?.met).toBe(false);
  });

  it('judges a row timed in pairs by the ratio of its pairs, not by the ratio of its medians', () => {
    const flat = (ratio: number) => ({ ...row('agent-call-flat', 100_000, 0.41, 0.2, 'the same over an empty history'), ratio });
    expect(verdictsOf(flat(1.3), [])[0]?.met).toBe(true);
    expect(verdictsOf({ ...row('agent-call', 10_000, 0.15, 0.4, 'pi-agent-core'), ratio: 1.2 }, [])).toEqual([{ goal: 'ahead of pi-agent-core', met: false }]);
  });

  it('asks 10x over the AI SDK loop and LangGraph from 1k messages', () => {
    const peer = (size: number, tiller: number, value: number, name: string, overLimit = false) =>
      ({ operation: 'agent-call-peers', size, unit: 'ms', tiller, reference: { name, value, ...(overLimit ? { overLimit } : {}) } }) as Measurement;
    const all = [peer(0, 0.2, 1.4, 'AI SDK'), peer(1000, 0.2, 30, 'AI SDK'), peer(1000, 0.2, 1.5, 'LangGraph'), peer(100_000, 0.3, 2000, 'AI SDK', true)];
    expect(verdictsOf(all[0]!, all)).toEqual([]);
    expect(verdictsOf(all[1]!, all)).toEqual([{ goal: 'at least 10x faster', met: true }]);
    expect(verdictsOf(all[2]!, all)).toEqual([{ goal: 'at least 10x faster', met: false }]);
    // A peer stopped at the limit is slower than the limit: the bound alone meets the goal.
    expect(verdictsOf(all[3]!, all)).toEqual([{ goal: 'at least 10x faster', met: true }]);
    const tooSlowToSay = peer(100_000, 300, 2000, 'AI SDK', true);
    expect(verdictsOf(tooSlowToSay, all).at(-1)).toEqual({ goal: 'at least 10x faster', met: undefined });
  });

  it('asks the durable agent for 10x over its peer from 1k messages, and judges its flatness against its twin over an empty history', () => {
    const durable = (size: number, tiller: number, value: number) =>
      ({ operation: 'agent-call-durable', size, unit: 'ms', tiller, reference: { name: 'LangGraph + SQLite', value } }) as Measurement;
    expect(verdictsOf(durable(0, 2, 5), [])).toEqual([]);
    expect(verdictsOf(durable(1000, 3, 150), [])).toEqual([{ goal: 'at least 10x faster', met: true }]);
    expect(verdictsOf(durable(10_000, 5, 40), [])[0]?.met).toBe(false);
    const flat = (size: number, tiller: number, empty: number) => row('agent-call-durable-flat', size, tiller, empty, 'the same over an empty history');
    expect(verdictsOf(flat(10_000, 5.4, 2.8), [])).toEqual([{ goal: 'flat: at most 2x its own over an empty history', met: true }]);
    expect(verdictsOf(flat(10_000, 5.4, 2.3), [])[0]?.met).toBe(false);
  });

  it('wants the 1,000-agent run ahead of every peer in turns per second', () => {
    const rate = (tiller: number, peer: number): Measurement => ({ operation: 'agents-throughput', size: 1000, unit: 'turns/s', tiller, reference: { name: 'AI SDK', value: peer } });
    expect(verdictsOf(rate(5000, 4000), [])).toEqual([{ goal: 'ahead in turns per second', met: true }]);
    expect(verdictsOf(rate(3000, 4000), [])[0]?.met).toBe(false);
  });

  it('says "no data" (undefined) when a ratio goal has no reference', () => {
    expect(verdictsOf(row('open-floor', 1000, 1), [])[0]?.met).toBeUndefined();
  });

  it('sets no goal for rows the issue gives none', () => {
    expect(verdictsOf(row('open', 100_000, 1, 2), [])).toEqual([]);
    expect(verdictsOf({ operation: 'memory-open', size: 100_000, unit: 'MB', tiller: 300, reference: { name: 'pi', value: 400 } }, [])).toEqual([]);
  });
});

describe('scalingOf', () => {
  it('compares each timed row with the same operation and reference ten times smaller', () => {
    const all = [
      row('context', 10_000, 1, 16),
      row('context', 100_000, 12, 900),
      row('open-floor', 10_000, 10, 9, 'floor'),
      row('open-floor', 100_000, 200, 90, 'floor'),
      { operation: 'memory-open', size: 100_000, unit: 'MB', tiller: 1 } as Measurement,
    ];
    const scaling = scalingOf(all, 10_000, 100_000);
    expect(scaling).toEqual([
      { operation: 'context', from: 10_000, to: 100_000, tiller: 12, reference: { name: 'pi', value: 56.25 }, verdict: { goal: 'linear: at most 15x', met: true } },
      { operation: 'open-floor', from: 10_000, to: 100_000, tiller: 20, reference: { name: 'floor', value: 10 }, verdict: { goal: 'linear: at most 15x', met: false } },
    ]);
  });

  it('allows what one pass over the entries grows, when that grows more than tenfold (caches), and lists no row for the pass', () => {
    const all = [row('one-pass', 10_000, 0.1), row('one-pass', 100_000, 3), row('context', 10_000, 1, 16), row('context', 100_000, 40, 900), row('prepare', 10_000, 1, 1), row('prepare', 100_000, 50, 1)];
    const scaling = scalingOf(all, 10_000, 100_000);
    expect(scaling.map((s) => [s.operation, s.verdict])).toEqual([
      ['context', { goal: "linear: at most 1.5x one pass's growth (30.0x), 45.0x", met: true }],
      ['prepare', { goal: "linear: at most 1.5x one pass's growth (30.0x), 45.0x", met: false }],
    ]);
  });

  it("judges a row timed beside its own pass by that pass's growth", () => {
    const all = [row('one-pass', 10_000, 1), row('one-pass', 100_000, 10), row('start', 10_000, 1, 1, ONE_PASS), row('start', 100_000, 40, 30, ONE_PASS)];
    expect(scalingOf(all, 10_000, 100_000)).toEqual([
      { operation: 'start', from: 10_000, to: 100_000, tiller: 40, reference: { name: ONE_PASS, value: 30 }, verdict: { goal: "linear: at most 1.5x one pass's growth (30.0x), 45.0x", met: true } },
    ]);
  });

  it('keeps tenfold as the floor when one pass grows less', () => {
    const all = [row('one-pass', 10_000, 1), row('one-pass', 100_000, 8), row('context', 10_000, 1, 16), row('context', 100_000, 16, 900)];
    expect(scalingOf(all, 10_000, 100_000)[0]?.verdict).toEqual({ goal: 'linear: at most 15x', met: false });
  });
});

describe('every goal on the page', () => {
  const UNITS: Partial<Record<OperationId, Unit>> = { 'agents-throughput': 'turns/s', 'stream-deltas': 'deltas/s', 'memory-open': 'MB', 'memory-held': 'MB', 'agents-memory': 'KB', 'turn-bytes': 'KB', 'turn-bytes-session': 'KB' };
  const operations = Object.keys(OPERATIONS) as OperationId[];
  const measurement = fc.record({
    operation: fc.constantFrom(...operations),
    size: fc.constantFrom(0, 1000, 10_000, 100_000),
    tiller: fc.double({ min: 1e-3, max: 1e4, noNaN: true }),
    reference: fc.option(fc.record({ name: fc.constantFrom('pi', 'AI SDK', 'floor'), value: fc.double({ min: 1e-3, max: 1e4, noNaN: true }), overLimit: fc.boolean() }), { nil: undefined }),
  });

  it('is a ratio measured in one run: scaling every number of a run alike changes no verdict', () => {
    fc.assert(
      fc.property(fc.array(measurement, { minLength: 1, maxLength: 12 }), fc.integer({ min: -20, max: 20 }), (drafts, exponent) => {
        const run: Measurement[] = drafts.map((d) => ({
          operation: d.operation,
          size: d.size,
          unit: UNITS[d.operation] ?? 'ms',
          tiller: d.tiller,
          ...(d.reference ? { reference: d.reference } : {}),
        }));
        // A power of two scales a double exactly, so no comparison flips by rounding.
        const factor = 2 ** exponent;
        const scaled = run.map((m) => ({ ...m, tiller: m.tiller * factor, ...(m.reference ? { reference: { ...m.reference, value: m.reference.value * factor } } : {}) }));
        const verdicts = (rows: Measurement[]) => rows.map((m) => verdictsOf(m, rows));
        expect(verdicts(scaled)).toEqual(verdicts(run));
        expect(scalingOf(scaled, 10_000, 100_000).map((s) => s.verdict)).toEqual(scalingOf(run, 10_000, 100_000).map((s) => s.verdict));
      }),
    );
  });

  it('reads a rate the other way round, so a ratio below 1 always means Tiller ahead', () => {
    expect(isRate('turns/s')).toBe(true);
    expect(isRate('ms')).toBe(false);
  });
});
