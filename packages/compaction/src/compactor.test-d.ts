import type { Entry } from '@tiller/core';
import type { ScriptedSummarizer } from '@tiller/testing/doubles';
import { describe, expectTypeOf, it } from 'vitest';
import type { CompactionAcc, CompactionContext, CompactionMeta, CompactionOutcome, Compactor } from './compactor.js';
import { NoOpCompactor } from './compactor.js';
import type { CompactionErrorCode } from './errors.js';
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

  it('keeps secrets out of the manifest type', () => {
    expectTypeOf<Extract<PolicyManifest, { policy: 'localSummarizer' }>['apiKey']>().toEqualTypeOf<'provided' | 'absent'>();
  });
});
