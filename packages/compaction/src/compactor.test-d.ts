import type { Entry } from '@tiller/core';
import type { ScriptedSummarizer } from '@tiller/testing';
import { describe, expectTypeOf, it } from 'vitest';
import type { CompactionAcc, CompactionContext, CompactionMeta, CompactionOutcome, Compactor } from './compactor.js';
import { isCompactor, NoOpCompactor } from './compactor.js';
import type { CompactionMeta as CoreCompactionMeta } from '@tiller/core';
import * as api from './index.js';
import { CompactionConfigError, CompactionError, type CompactionErrorCode, CompactionPolicyViolation, type PolicyViolationFacts, TillerCompactionError, type TillerCompactionErrorCode } from './errors/index.js';
import { type CompactorRun, runCompactor } from './run-compactor.js';
import type { PolicyManifest } from './policy.js';
import type { SummarizeRequest, Summarizer } from './summarizer.js';
import { WindowManager, type WindowManagerInput } from './window-manager.js';

describe('the Compactor contract', () => {
  it('takes the path and the boundary, and resolves to the path and what happened', () => {
    expectTypeOf(NoOpCompactor).toExtend<Compactor<undefined>>();
    expectTypeOf<Compactor['maybeCompact']>().parameters.toEqualTypeOf<[CompactionAcc, CompactionContext, (undefined | undefined)?]>();
    expectTypeOf<Compactor['maybeCompact']>().returns.toEqualTypeOf<Promise<CompactionOutcome>>();
    expectTypeOf<CompactionAcc['path']>().toEqualTypeOf<readonly Entry[]>();
    expectTypeOf(WindowManager).returns.toExtend<Compactor<Partial<WindowManagerInput>>>();
    const value: unknown = NoOpCompactor;
    if (isCompactor(value)) expectTypeOf(value.name).toEqualTypeOf<string>();
  });

  it('has the numbers and the dropped entries only on a compaction', () => {
    const meta = {} as CompactionMeta;
    if (meta.compacted) {
      expectTypeOf(meta.dropped).toEqualTypeOf<readonly Entry[]>();
      expectTypeOf(meta.tokensRemoved).toBeNumber();
    } else {
      expectTypeOf(meta.error).toEqualTypeOf<Error | undefined>();
      // @ts-expect-error no figures when nothing was compacted
      void meta.tokensAfter;
    }
    expectTypeOf(meta.appended).toEqualTypeOf<readonly Entry[]>();
  });

  it('lets any async function be a summarizer', () => {
    const local = { summarize: async (request: SummarizeRequest) => ({ text: request.prompt.slice(0, 10) }) };
    expectTypeOf(local).toExtend<Summarizer>();
    // The test double in @tiller/testing is declared by shape; it must stay a Summarizer.
    expectTypeOf<ScriptedSummarizer>().toExtend<Summarizer>();
    expectTypeOf<CompactionErrorCode>().toEqualTypeOf<'aborted' | 'summarization_failed' | 'invalid_session'>();
  });

  it('lets a compactor say which window it would use, and the shell run it through runCompactor', () => {
    expectTypeOf<NonNullable<Compactor<{ w: number }>['windowFor']>>().parameters.toEqualTypeOf<[string, ({ w: number } | undefined)?]>();
    expectTypeOf(WindowManager({ strategy: 'keepTail' }).windowFor).returns.toBeNumber();
    expectTypeOf<NonNullable<Compactor<{ w: number }>['reserveFor']>>().parameters.toEqualTypeOf<[string, ({ w: number } | undefined)?]>();
    expectTypeOf(WindowManager({ strategy: 'keepTail' }).reserveFor).returns.toBeNumber();
    expectTypeOf(runCompactor<undefined>).returns.toEqualTypeOf<Promise<CompactorRun>>();
    expectTypeOf<CompactorRun['meta']>().toEqualTypeOf<CoreCompactionMeta>();
    expectTypeOf<CompactorRun['appended']>().toEqualTypeOf<Entry[]>();
  });

  it('has one error base with a code; isInstance narrows to the class', () => {
    const error: unknown = new Error('x');
    if (CompactionError.isInstance(error)) expectTypeOf(error.code).toEqualTypeOf<CompactionErrorCode>();
    if (CompactionPolicyViolation.isInstance(error)) expectTypeOf(error.facts).toEqualTypeOf<PolicyViolationFacts>();
    if (TillerCompactionError.isInstance(error)) expectTypeOf(error.code).toEqualTypeOf<TillerCompactionErrorCode>();
    expectTypeOf<CompactionConfigError>().toExtend<TillerCompactionError>();
  });

  it('keeps helpers and option schemas out of the API', () => {
    expectTypeOf(api).not.toHaveProperty('WindowManagerOptions');
    expectTypeOf(api).not.toHaveProperty('addUsage');
    expectTypeOf(api).not.toHaveProperty('createFileTracker');
    expectTypeOf(api).not.toHaveProperty('compactionDoneMeta');
    expectTypeOf(api).not.toHaveProperty('runAfterCompactHooks');
  });

  it('keeps secrets out of the manifest type', () => {
    expectTypeOf<Extract<PolicyManifest, { policy: 'localSummarizer' }>['apiKey']>().toEqualTypeOf<'provided' | 'absent'>();
  });
});
