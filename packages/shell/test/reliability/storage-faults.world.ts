import { WindowManager } from '@tiller/compaction';
import type { Entry } from '@tiller/core';
import { JsonlStore } from '@tiller/session';
import { scriptedModel, type ScriptStep } from '@tiller/testing';
import { z } from 'zod';
import { defineTool, modelSummarizer, type Tool } from '../../src/index.js';

/**
 * What the agents of storage-faults.test.ts meet, in the child that runs out of room and in the
 * test process that resumes after it. Everything is fixed (no time, no randomness in sizes), so a
 * file size limit always stops the same write.
 */
export type StorageScenario = 'tools' | 'compaction';

/** A tool that does nothing much: it returns a page of text, 3,000 characters (12,000 where the compactor needs to be reached). */
export function fillTool(scenario: StorageScenario): Tool {
  const chars = scenario === 'compaction' ? 12_000 : 3_000;
  return defineTool({ name: 'fill', description: 'Returns a page of text.', input: z.object({ page: z.number() }), execute: ({ page }) => `page ${page}: ${'x'.repeat(chars)}` });
}

/** The model of the run that fails: `fill` ten times, then an answer; its window only where a compactor needs one. */
export function failingRunModel(scenario: StorageScenario) {
  const script: ScriptStep[] = Array.from({ length: 10 }, (_, i) => ({ toolCalls: [{ id: `call-${i}`, name: 'fill', args: { page: i } }] }));
  script.push({ text: 'read them all' });
  return scriptedModel(script, scenario === 'compaction' ? { contextWindow: WINDOW } : {});
}

/** The model after the fault: it answers at once, every time. */
export const answeringModel = () => scriptedModel(Array.from({ length: 10 }, () => ({ text: 'carried on' })), { contextWindow: WINDOW });

const WINDOW = 20_000;

/** WindowManager summarizing through a model whose summary is `summaryChars` long. */
export function summarizingCompactor(summaryChars: number) {
  const summarizer = scriptedModel(Array.from({ length: 40 }, () => () => ({ text: `Summary: ${'s'.repeat(summaryChars)}` })), { id: 'scripted/summarizer' });
  return WindowManager({ strategy: 'summarize', summarizer: modelSummarizer(summarizer), contextWindow: WINDOW, reserveTokens: 600, keepRecentTokens: 500 });
}

/**
 * A session file that is large before the run: `count` old exchanges of `chars` characters each on
 * a branch of their own, then a new root (the session's name) where the run continues, so the
 * file is big while the model's context starts empty. Its session then runs out of room before
 * the journal, which starts small.
 */
export async function writeHistory(path: string, count: number, chars: number): Promise<void> {
  const store = await JsonlStore.open(path, { create: { id: 'storage-faults', createdAt: '2026-01-01T00:00:00.000Z' } });
  const at = '2026-01-01T00:00:00.000Z';
  const entries: Entry[] = [];
  for (let i = 0; i < count; i++) {
    const parentId = entries.at(-1)?.id ?? null;
    entries.push(
      i % 2 === 0
        ? { kind: 'message', id: `old-${i}`, parentId, at, message: { role: 'user', content: `question ${i}: ${'q'.repeat(chars)}` } }
        : { kind: 'message', id: `old-${i}`, parentId, at, message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i}: ${'a'.repeat(chars)}` }], usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2 }, stopReason: 'stop' } },
    );
  }
  entries.push({ kind: 'custom', id: 'fresh-start', parentId: null, at, customType: 'tiller.session_name', data: { name: 'after the old branch' } });
  await store.append(entries);
  await store.close();
}
