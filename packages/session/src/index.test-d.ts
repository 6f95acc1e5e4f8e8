import type { Entry, Message } from '@tiller/core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createSessionLog,
  exportPiSession,
  importPiSession,
  JsonlStore,
  MemoryStore,
  resumeContext,
  type AppendErrorCode,
  type Durability,
  type ImportedEntry,
  type SessionLog,
  type SessionStore,
} from './index.js';

describe('public types', () => {
  it('a log over any store', () => {
    expectTypeOf(createSessionLog).parameter(0).toEqualTypeOf<SessionStore>();
    expectTypeOf(createSessionLog).returns.toEqualTypeOf<SessionLog>();
    expectTypeOf<MemoryStore>().toMatchTypeOf<SessionStore>();
    expectTypeOf<JsonlStore>().toMatchTypeOf<SessionStore>();
    expectTypeOf<SessionLog['path']>().returns.toEqualTypeOf<Entry[]>();
    expectTypeOf<SessionLog['context']>().returns.toEqualTypeOf<Message[]>();
    expectTypeOf<SessionLog['leafId']>().toEqualTypeOf<string | null>();
    expectTypeOf<SessionStore['takeIndex']>().toEqualTypeOf<(() => Map<string, Entry> | undefined) | undefined>();
  });

  it('closed sets of options and codes', () => {
    expectTypeOf<Durability>().toEqualTypeOf<'always' | 'batch' | 'never'>();
    expectTypeOf<AppendErrorCode>().toEqualTypeOf<'duplicate_id' | 'missing_parent' | 'invalid_entry' | 'read_only' | 'closed'>();
  });

  it('pi import gives entries a log accepts, export takes any entries', () => {
    expectTypeOf<ReturnType<typeof importPiSession>['entries']>().toEqualTypeOf<ImportedEntry[]>();
    expectTypeOf<ImportedEntry>().toMatchTypeOf<Entry>();
    expectTypeOf(exportPiSession).parameter(0).toEqualTypeOf<readonly Entry[]>();
    expectTypeOf(resumeContext).returns.resolves.toHaveProperty('context').toEqualTypeOf<Message[]>();
  });
});
