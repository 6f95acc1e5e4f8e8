import { expect, it } from 'vitest';
import * as errors from './errors.js';

it('isInstance recognises errors of another copy of the package, where instanceof does not', async () => {
  // A second evaluation of the module: what two installed copies of @tiller/session give a process.
  const other = (await import(/* @vite-ignore */ `./errors.js?copy=${Date.now()}`)) as typeof errors;
  expect(other.AppendError).not.toBe(errors.AppendError);
  const theirs = new other.AppendError('closed', 'e1', 'closed');
  expect(theirs instanceof errors.AppendError).toBe(false);
  expect(errors.SessionError.isInstance(theirs)).toBe(true);
  expect(errors.AppendError.isInstance(theirs)).toBe(true);
  expect(errors.SessionLockedError.isInstance(theirs)).toBe(false);
  expect(theirs.code).toBe('closed');
});

it('every error of the package has a code and is a SessionError', () => {
  const made = [
    new errors.AppendError('duplicate_id', 'a', 'm'),
    new errors.UnknownEntryError('a'),
    new errors.SessionLockedError('f', 1),
    new errors.SessionFileError({ file: 'f', line: 2, field: 'id' }, 'bad', 'invalid'),
    new errors.PiImportError({ file: 'f', line: 2 }, 'bad'),
    new errors.SessionOptionsError('JsonlStore.open', 'fsync', 'bad'),
    new errors.SessionStoreError('is bad'),
  ];
  expect(made.map((e) => [e.name, e.code, errors.SessionError.isInstance(e), e instanceof errors.SessionError])).toEqual([
    ['AppendError', 'duplicate_id', true, true],
    ['UnknownEntryError', 'unknown_entry', true, true],
    ['SessionLockedError', 'locked', true, true],
    ['SessionFileError', 'invalid', true, true],
    ['PiImportError', 'invalid_pi_session', true, true],
    ['SessionOptionsError', 'invalid_options', true, true],
    ['SessionStoreError', 'invalid_store', true, true],
  ]);
  expect(errors.SessionError.isInstance(new Error('x'))).toBe(false);
  expect(errors.SessionError.isInstance({ code: 'locked' })).toBe(false);
});
