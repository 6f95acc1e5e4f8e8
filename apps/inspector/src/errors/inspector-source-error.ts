import { InspectorError } from './inspector-error.js';

/** The file given is no journal and no session file with its journal beside it, or it cannot be read; the message says which. */
export class InspectorSourceError extends InspectorError {
  static override readonly code = 'invalid_source';
  override readonly name = 'InspectorSourceError';
}
