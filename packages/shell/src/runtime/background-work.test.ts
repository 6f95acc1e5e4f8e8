import { describe, expect, it } from 'vitest';
import type { EffectAnswer } from '../effects/effect-context.js';
import { createBackgroundWork } from './background-work.js';

describe('createBackgroundWork', () => {
  it('answers under the effect id, and is settled once every job has ended', async () => {
    const answers: [string, EffectAnswer][] = [];
    const work = createBackgroundWork({ answer: (id, answer) => answers.push([id, answer]), failed: () => {} });
    let finish!: () => void;
    const signal = new AbortController().signal;
    work.start('t:call:1', 'calling the model', (s) => new Promise((resolve) => (finish = () => resolve({ input: { type: 'abort', at: 'x', reason: s === signal ? 'got the signal' : 'another signal' } }))), signal);
    expect(work.running()).toBe(true);
    finish();
    await work.settled();
    expect(work.running()).toBe(false);
    expect(answers).toEqual([['t:call:1', { input: { type: 'abort', at: 'x', reason: 'got the signal' } }]]);
  });

  it('turns a job that throws into a report and an abort answer that says where and why', async () => {
    const answers: [string, EffectAnswer][] = [];
    const failures: [string, string][] = [];
    const work = createBackgroundWork({ answer: (id, answer) => answers.push([id, answer]), failed: (where, message) => failures.push([where, message]) });
    work.start('t:tools:2', 'running tools', () => Promise.reject(new Error('journal write failed')), new AbortController().signal);
    await work.settled();
    expect(failures).toEqual([['running tools', 'the shell failed while running tools: journal write failed']]);
    expect(answers).toMatchObject([['t:tools:2', { input: { type: 'abort', reason: 'the shell failed while running tools: journal write failed' } }]]);
  });
});
