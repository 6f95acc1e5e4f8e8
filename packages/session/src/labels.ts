import type { CustomEntry, Entry } from '@tiller/core';
import { CustomTypes, type LabelData } from './custom-types.js';

/**
 * What a `tiller.label` entry does to the labels: sets `label` on `targetId`, or clears it
 * (`label` undefined, also for a blank one). Undefined for any other entry, and for a label entry
 * whose data names no target (another writer's, or damaged), which changes nothing.
 */
export function labelChange(entry: CustomEntry): { targetId: string; label: string | undefined } | undefined {
  if (entry.customType !== CustomTypes.label) return undefined;
  const data = entry.data as Partial<LabelData> | null | undefined;
  if (typeof data !== 'object' || data === null || typeof data.targetId !== 'string') return undefined;
  const label = typeof data.label === 'string' ? data.label.trim() : '';
  return { targetId: data.targetId, label: label || undefined };
}

/** The label of each entry after all of `entries`, in order: the latest label entry for a target wins. */
export function labelsOf(entries: readonly Entry[]): Map<string, string> {
  const labels = new Map<string, string>();
  for (const entry of entries) {
    const change = entry.kind === 'custom' ? labelChange(entry) : undefined;
    if (change?.label === undefined) {
      if (change) labels.delete(change.targetId);
    } else labels.set(change.targetId, change.label);
  }
  return labels;
}
