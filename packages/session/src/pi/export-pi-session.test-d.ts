import type { CompactionEntry } from '@tiller/core';
import { expectTypeOf, it } from 'vitest';
import type { TILLER_ONLY_FIELDS } from './import-pi-session.js';

it('every compaction field pi has no place for travels in details.tiller', () => {
  // A field added to core's compaction entry fails here until the export carries it.
  // `meta` is mapped for every kind: meta.pi restores pi's own fields, the rest travels as the line's `tillerMeta`.
  type MappedToPi = 'id' | 'parentId' | 'at' | 'kind' | 'meta' | 'summary' | 'firstKeptEntryId' | 'tokensBefore' | 'details';
  expectTypeOf<Exclude<keyof CompactionEntry, MappedToPi>>().toEqualTypeOf<(typeof TILLER_ONLY_FIELDS)[number]>();
});
