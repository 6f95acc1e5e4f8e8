export type { FileLocation } from './file-location.js';
export { SessionError, type AppendErrorCode, type SessionErrorCode, type SessionFileErrorCode } from './session-error.js';
export { AppendError } from './append-error.js';
export { UnknownEntryError } from './unknown-entry-error.js';
export { SessionLockedError } from './session-locked-error.js';
export { SessionFileError } from './session-file-error.js';
export { PiImportError } from './pi-import-error.js';
export { SessionOptionsError } from './session-options-error.js';
export { SessionStoreError } from './session-store-error.js';
