/**
 * `@tiller/session/text`: reading a session file's text without a file system, for a browser or
 * any host that has the text already. Nothing here imports a Node module.
 */
export { readSessionText, isSessionText, type SessionFileContents } from './read-session-text.js';
export { labelsOf } from './labels.js';
export { SessionError, SessionFileError } from './errors/index.js';
export type { FileLocation, SessionErrorCode, SessionFileErrorCode } from './errors/index.js';
export type { ReadWarning } from './read-warning.js';
export type { SessionFileHeader } from './jsonl/format.js';
