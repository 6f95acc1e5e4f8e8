import { expect, it } from 'vitest';
import * as errors from './index.js';

it('isInstance recognises errors of another copy of the package, where instanceof does not', async () => {
  // Second evaluations of the modules: what two installed copies of @tiller/session give a process.
  const copy = Date.now();
  const other = (await import(/* @vite-ignore */ `./append-error.js?copy=${copy}`)) as typeof import('./append-error.js');
  expect(other.AppendError).not.toBe(errors.AppendError);
  const theirs = new other.AppendError('closed', 'e1', 'closed');
  expect(theirs instanceof errors.AppendError).toBe(false);
  expect(errors.SessionError.isInstance(theirs)).toBe(true);
  expect(errors.AppendError.isInstance(theirs)).toBe(true);
  expect(errors.SessionLockedError.isInstance(theirs)).toBe(false);
  expect(theirs.code).toBe('closed');
  // The base of the other copy is another class too: only the marker is shared.
  const otherBase = (await import(/* @vite-ignore */ `./session-error.js?copy=${copy}`)) as typeof import('./session-error.js');
  class TheirLockedError extends otherBase.SessionError {
    override readonly name = 'SessionLockedError';
    readonly code = 'locked';
  }
  const locked = new TheirLockedError('locked');
  expect(locked instanceof errors.SessionError).toBe(false);
  expect(errors.SessionError.isInstance(locked)).toBe(true);
  expect(errors.SessionLockedError.isInstance(locked)).toBe(true);
  expect(errors.SessionError.isInstance(new Error('plain'))).toBe(false);
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
