import type { Entry, Message } from '@tiller/core';
import { describe, expectTypeOf, it } from 'vitest';
import {
  createSessionLog,
  exportPiSession,
  importPiSession,
  JsonlStore,
  MemoryStore,
  resumeContext,
  SessionError,
  type AppendErrorCode,
  type CreateOptions,
  type Durability,
  type JsonlStoreOptions,
  type ReadWarning,
  type SessionFileErrorCode,
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

  it('creating a file is an option of its own; warnings come with the log', () => {
    expectTypeOf<JsonlStoreOptions['create']>().toEqualTypeOf<boolean | CreateOptions | undefined>();
    expectTypeOf<SessionLog['warnings']>().toEqualTypeOf<readonly ReadWarning[]>();
    expectTypeOf<ReadWarning['kind']>().toEqualTypeOf<'torn_line' | 'corrupt_line' | 'repeated_id' | 'skipped_parent' | 'missing_parent' | 'dropped_field'>();
    expectTypeOf(SessionError.isInstance).guards.toEqualTypeOf<SessionError>();
  });

  it('closed sets of options and codes', () => {
    expectTypeOf<SessionFileErrorCode>().toEqualTypeOf<'not_found' | 'unreadable' | 'unwritable' | 'invalid'>();
    expectTypeOf<Durability>().toEqualTypeOf<'always' | 'batch' | 'never'>();
    expectTypeOf<AppendErrorCode>().toEqualTypeOf<'duplicate_id' | 'missing_parent' | 'invalid_entry' | 'read_only' | 'closed' | 'write_failed'>();
  });

  it('pi import gives entries a log accepts, export takes any entries', () => {
    expectTypeOf<ReturnType<typeof importPiSession>['entries']>().toEqualTypeOf<ImportedEntry[]>();
    expectTypeOf<ImportedEntry>().toMatchTypeOf<Entry>();
    expectTypeOf(exportPiSession).parameter(0).toEqualTypeOf<readonly Entry[]>();
    expectTypeOf(resumeContext).returns.resolves.toHaveProperty('context').toEqualTypeOf<Message[]>();
  });
});
