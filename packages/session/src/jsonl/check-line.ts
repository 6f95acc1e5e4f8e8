import type { Entry } from '@tiller/core';
import { ownValue } from '../own-value.js';
import { checkEntryShape } from './check-entry-shape.js';

/** A field the entry did without: where the problem was, why, and the field that was dropped for it. */
export interface DroppedField {
  field: string;
  reason: string;
  dropped: string;
}

export type LineCheck = { kind: 'entry'; entry: Entry; dropped: DroppedField[] } | { kind: 'corrupt'; field: string; reason: string };

/** Optional fields of the entry itself (by kind, as the schema has them). */
const ENTRY_OPTIONAL = new Set(['meta', 'origin', 'tokensAfter', 'compactedEntryIds', 'cleared', 'stripThinking', 'details', 'provenance']);
/** Optional fields of an entry's message. */
const MESSAGE_OPTIONAL = new Set(['usage', 'stopReason', 'model', 'errorMessage']);
/** Optional fields of a message part, by part type. */
const PART_OPTIONAL: Readonly<Record<string, readonly string[]>> = { thinking: ['signature', 'redacted'], toolCall: ['unparsedArgs'], file: ['name'] };

/**
 * A parsed line checked against the schema, keeping what can be kept: when what is wrong is an
 * optional field (a usage another writer left without `totalTokens`, a `model` of null), that field
 * is dropped and the entry kept, so the entries after it are not cut off from their parent. A
 * fault in a field the entry cannot do without makes the line corrupt, as before.
 */
export function checkLine(value: unknown): LineCheck {
  const dropped: DroppedField[] = [];
  // Each pass deletes a key the line has, so the passes end.
  for (;;) {
    const problem = checkEntryShape(value);
    if (!problem) return { kind: 'entry', entry: value as Entry, dropped };
    // A line that is no object (`null`, `42`) has no field to drop.
    const field = isObject(value) ? dropOptionalField(value, problem.field) : undefined;
    if (!field) return { kind: 'corrupt', field: problem.field, reason: problem.reason };
    dropped.push({ field: problem.field, reason: problem.reason, dropped: field });
  }
}

/** Deletes the optional field that holds `field` (a path such as `message.usage.input`) from the parsed line; its path, or undefined when none does. */
function dropOptionalField(entry: Record<string, unknown>, field: string): string | undefined {
  const [top, second] = field.split('.');
  if (top === undefined) return undefined;
  if (ENTRY_OPTIONAL.has(top) && Object.hasOwn(entry, top)) {
    delete entry[top];
    return top;
  }
  const message = entry.message as Record<string, unknown> | undefined;
  if (top !== 'message' || typeof message !== 'object' || message === null || second === undefined) return undefined;
  const key = second.replace(/\[.*$/, '');
  if (MESSAGE_OPTIONAL.has(key) && Object.hasOwn(message, key)) {
    delete message[key];
    return `message.${key}`;
  }
  const part = /^message\.content\[(\d+)\]\.(\w+)$/.exec(field);
  if (!part || !Array.isArray(message.content)) return undefined;
  const [, index, partKey] = part;
  const target = message.content[Number(index)] as Record<string, unknown> | undefined;
  if (!target || !(ownValue(PART_OPTIONAL, target.type) ?? []).includes(partKey!) || !Object.hasOwn(target, partKey!)) return undefined;
  delete target[partKey!];
  return `message.content[${index}].${partKey}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
