import type { CompactionEntry } from '@tiller/core';
import { expectTypeOf, it } from 'vitest';
import type { TILLER_ONLY_FIELDS } from './import-pi-session.js';

it('every compaction field pi has no place for travels in details.tiller', () => {
  // A field added to core's compaction entry fails here until the export carries it.
  type MappedToPi = 'id' | 'parentId' | 'at' | 'kind' | 'summary' | 'firstKeptEntryId' | 'tokensBefore' | 'details';
  expectTypeOf<Exclude<keyof CompactionEntry, MappedToPi>>().toEqualTypeOf<(typeof TILLER_ONLY_FIELDS)[number]>();
});
