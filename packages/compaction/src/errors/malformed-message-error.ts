import { TillerCompactionError } from './tiller-compaction-error.js';

/**
 * A message handed to a token estimate is not what the schema says (content that is null or a
 * number, a part of an unknown type, a text that is not a string): it cannot be counted, and a
 * count of what could be read would be a context size that is wrong without saying so. `where`
 * names the call and the message (`estimateContextTokens: messages[3]`), `field` the bad field
 * within it (`content[1].text`).
 */
export class MalformedMessageError extends TillerCompactionError {
  static override readonly codes = ['malformed_message'] as const;
  override readonly name = 'MalformedMessageError';
  readonly code = 'malformed_message';
  readonly where: string;
  readonly field: string;

  constructor(where: string, field: string, reason: string, options?: { cause?: unknown }) {
    super(`${where} is malformed at ${field}: ${reason}`, options);
    this.where = where;
    this.field = field;
  }
}
