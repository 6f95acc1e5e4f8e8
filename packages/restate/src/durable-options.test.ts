import type { Compactor } from '@tiller/compaction';
import { createAgent } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { resolveDurableOptions } from './durable-options.js';
import { DurableError } from './errors/durable-error.js';
import { DurableOptionsError } from './errors/durable-options-error.js';

describe('resolveDurableOptions', () => {
  const model = scriptedModel([]);

  it('fills the defaults: the shell limits, the no-op compactor, timeouts above a long tool', () => {
    const resolved = resolveDurableOptions({ model }, 'serve');
    expect(resolved.name).toBe('TillerSession');
    expect(resolved.limits.maxToolConcurrency).toBe(4);
    expect(resolved.compactor.name).toBe('noop');
    expect(resolved.inactivityTimeoutMs).toBeGreaterThanOrEqual(resolved.limits.toolTimeoutMs);
  });

  it('fails at configuration with the entry point and the option that is wrong', () => {
    expect(() => resolveDurableOptions({ model: {} as never }, 'serve')).toThrow(DurableOptionsError);
    try {
      resolveDurableOptions({ model: {} as never }, 'serve');
    } catch (error) {
      expect(DurableError.isInstance(error)).toBe(true);
      expect(DurableOptionsError.isInstance(error)).toBe(true);
      expect((error as DurableError).code).toBe('invalid_options');
    }
    expect(() => resolveDurableOptions({ model: {} as never }, 'serve')).toThrow(/serve: invalid options:[\s\S]*model/);
    expect(() => resolveDurableOptions({ model, name: 'not a name' }, 'serve')).toThrow(/name/);
    expect(() => resolveDurableOptions({ model, limits: { maxToolConcurrency: 0 } }, 'durableServices')).toThrow(/durableServices[\s\S]*maxToolConcurrency/);
    expect(() => resolveDurableOptions({ model, limits: { approvalTimeoutMs: -1 } }, 'serve')).toThrow(/serve: invalid options:[\s\S]*at limits\.approvalTimeoutMs/);
    expect(() => resolveDurableOptions({ model, tools: [{ name: 'x' }] as never }, 'serve')).toThrow(/defineTool[\s\S]*at tools\[0\]/);
  });

  it("refuses a model as createAgent does, in the shell's words under its own name (an empty id, a missing model, no stream)", () => {
    const refusal = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    for (const bad of [{ ...model, id: '' }, undefined, { id: 'x' }]) {
      const shell = refusal(() => createAgent({ model: bad as never }));
      expect(shell).toMatch(/^createAgent: invalid options:\n✖ expected a Tiller model \(an object with a non-empty id and stream\(request\)\); wrap an AI SDK model with fromLanguageModel\(model\)\n {2}→ at model$/);
      expect(refusal(() => resolveDurableOptions({ model: bad as never }, 'serve'))).toBe(shell.replace(/^createAgent/, 'serve'));
    }
  });

  it('checks the limits with the shell schema: its names, its defaults, an unknown or bad limit named', () => {
    expect(resolveDurableOptions({ model, limits: { approvalTimeoutMs: 86_400_000 } }, 'serve').limits).toMatchObject({ approvalTimeoutMs: 86_400_000, maxRetries: 3, toolTimeoutMs: 120_000 });
    expect(() => resolveDurableOptions({ model, limits: { maxRetries: 1.5 } }, 'serve')).toThrow(/serve: invalid options:[\s\S]*at limits\.maxRetries/);
    expect(() => resolveDurableOptions({ model, limits: { maxToolConcurency: 2 } as never }, 'serve')).toThrow(/maxToolConcurency/);
    expect(() => resolveDurableOptions({ model, limits: 'many' as never }, 'serve')).toThrow(DurableOptionsError);
    expect(() => resolveDurableOptions({ model, limits: [] as never }, 'serve')).toThrow(/serve: invalid options:[\s\S]*expected an object of limits[\s\S]*at limits/);
  });
  it('lets an approval wait longer than a Node timer can: it is a durable sleep on Restate', () => {
    const thirtyDays = 30 * 86_400_000;
    expect(resolveDurableOptions({ model, limits: { approvalTimeoutMs: thirtyDays } }, 'serve').limits.approvalTimeoutMs).toBe(thirtyDays);
    // The shell's own timers keep their bound.
    expect(() => resolveDurableOptions({ model, limits: { toolTimeoutMs: thirtyDays } }, 'serve')).toThrow(/at limits\.toolTimeoutMs/);
  });

  it("refuses a tool, model or compaction time limit that Restate's cut of a step would beat, naming both sides", () => {
    // Before: taken. A 40-minute tool under the default 15 + 15 minutes ran to its end, then its
    // step was cut and replayed, and the model was told the call had been interrupted.
    expect(() => resolveDurableOptions({ model, limits: { toolTimeoutMs: 40 * 60_000 } }, 'serve')).toThrow(
      /^serve: invalid options: limits\.toolTimeoutMs \(2400000 ms\) is not below inactivityTimeoutMs \+ abortTimeoutMs \(1800000 ms\)[\s\S]*→ at limits\.toolTimeoutMs$/,
    );
    expect(() => resolveDurableOptions({ model, inactivityTimeoutMs: 500, abortTimeoutMs: 500 }, 'durableServices')).toThrow(/^durableServices: invalid options: limits\.toolTimeoutMs \(120000 ms\) is not below/);
    expect(() => resolveDurableOptions({ model, limits: { firstTokenTimeoutMs: 31 * 60_000 } }, 'serve')).toThrow(/at limits\.firstTokenTimeoutMs$/);
    expect(() => resolveDurableOptions({ model, limits: { streamIdleTimeoutMs: 31 * 60_000 } }, 'serve')).toThrow(/at limits\.streamIdleTimeoutMs$/);
    // A compactor that runs past the cut would be cut and run again, never stopped by its own limit.
    expect(() => resolveDurableOptions({ model, limits: { compactionTimeoutMs: 31 * 60_000 } }, 'serve')).toThrow(
      /limits\.compactionTimeoutMs \(1860000 ms\), twice over \(the compactor, then the afterCompact hooks, in one step\), is not below inactivityTimeoutMs \+ abortTimeoutMs \(1800000 ms\)[\s\S]*→ at limits\.compactionTimeoutMs$/,
    );
    // Raised to fit, the same limits are taken.
    const long = resolveDurableOptions({ model, limits: { toolTimeoutMs: 40 * 60_000 }, inactivityTimeoutMs: 45 * 60_000 }, 'serve');
    expect(long.limits.toolTimeoutMs).toBe(40 * 60_000);
    expect(resolveDurableOptions({ model, inactivityTimeoutMs: 1_000 }, 'serve').inactivityTimeoutMs).toBe(1_000);
    // A cut shorter than the shell's default compaction limit (10 min) is no fault of the host's
    // when it set no compaction limit: the default is taken below the cut instead.
    const short = resolveDurableOptions({ model, inactivityTimeoutMs: 4 * 60_000, abortTimeoutMs: 60_000 }, 'serve');
    expect(short.limits.compactionTimeoutMs).toBeLessThan(5 * 60_000);
    expect(() => resolveDurableOptions({ model, inactivityTimeoutMs: 4 * 60_000, abortTimeoutMs: 60_000, limits: { compactionTimeoutMs: 6 * 60_000 } }, 'serve')).toThrow(/at limits\.compactionTimeoutMs$/);
  });

  it('holds the compaction step to twice its limit, since the afterCompact hooks get as long again in the same step', () => {
    // Before: 16 min was taken under a 30 min cut, and a slow compactor followed by a slow hook
    // (up to 32 min in one step) had the step cut and run again: the summarizer paid twice, the hooks told twice.
    expect(() => resolveDurableOptions({ model, limits: { compactionTimeoutMs: 16 * 60_000 } }, 'serve')).toThrow(
      /limits\.compactionTimeoutMs \(960000 ms\), twice over \(the compactor, then the afterCompact hooks, in one step\), is not below inactivityTimeoutMs \+ abortTimeoutMs \(1800000 ms\)[\s\S]*→ at limits\.compactionTimeoutMs$/,
    );
    expect(resolveDurableOptions({ model, limits: { compactionTimeoutMs: 14 * 60_000 } }, 'serve').limits.compactionTimeoutMs).toBe(14 * 60_000);
    // Unset, the default is taken so that both fit.
    const short = resolveDurableOptions({ model, inactivityTimeoutMs: 4 * 60_000, abortTimeoutMs: 60_000 }, 'serve');
    expect(2 * short.limits.compactionTimeoutMs).toBeLessThan(5 * 60_000);
  });

  it('refuses a compactor that cannot work for the model, as createAgent does, naming it', () => {
    // Before: taken; the worker started and every boundary of every turn compacted nothing for want of a window.
    const own = (over: Partial<Compactor<unknown>>): Compactor<unknown> => ({ name: 'mine', maybeCompact: async (acc) => ({ acc, meta: { compacted: false, appended: [] } }), needsWindow: () => true, ...over });
    expect(() => resolveDurableOptions({ model, compactor: own({}) }, 'serve')).toThrow(DurableOptionsError);
    expect(() => resolveDurableOptions({ model, compactor: own({}) }, 'serve')).toThrow(/^serve: compactor "mine" needs the model's context window, and neither the model nor the compactor knows it/);
    expect(() => resolveDurableOptions({ model, compactor: own({ windowFor: () => Number.NaN }) }, 'durableServices')).toThrow(/^durableServices: compactor "mine": windowFor\("scripted\/model"\) must return a positive whole number of tokens, got NaN$/);
    expect(resolveDurableOptions({ model, compactor: own({ windowFor: () => 200_000 }) }, 'serve').compactor.name).toBe('mine');
  });
});
