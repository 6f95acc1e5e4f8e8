import type { Entry } from '@tiller/core';
import { describe, expectTypeOf, it } from 'vitest';
import { isSessionText, labelsOf, readSessionText, SessionError, SessionFileError, type ReadWarning, type SessionFileContents, type SessionFileHeader } from './text.js';

describe('@tiller/session/text public types', () => {
  it('reads text into the header, the entries and the warnings', () => {
    expectTypeOf(readSessionText).parameters.toEqualTypeOf<[text: string, file: string]>();
    expectTypeOf(readSessionText).returns.toEqualTypeOf<SessionFileContents>();
    expectTypeOf<SessionFileContents['header']>().toEqualTypeOf<SessionFileHeader>();
    expectTypeOf<SessionFileContents['entries']>().toEqualTypeOf<Entry[]>();
    expectTypeOf<SessionFileContents['byId']>().toEqualTypeOf<Map<string, Entry>>();
    expectTypeOf<SessionFileContents['warnings']>().toEqualTypeOf<ReadWarning[]>();
    expectTypeOf(isSessionText).returns.toEqualTypeOf<boolean>();
    expectTypeOf(labelsOf).parameter(0).toEqualTypeOf<readonly Entry[]>();
    expectTypeOf(labelsOf).returns.toEqualTypeOf<Map<string, string>>();
    expectTypeOf<SessionFileError>().toMatchTypeOf<SessionError>();
  });
});
