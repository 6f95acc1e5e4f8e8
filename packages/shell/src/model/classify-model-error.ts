import { APICallError, InvalidResponseDataError, JSONParseError, TypeValidationError } from '@ai-sdk/provider';
import { NoOutputGeneratedError, RetryError } from 'ai';
import { ModelError } from '@tiller/core';
import { describeThrown } from '../describe-thrown.js';

/** What providers say when the request is larger than the model's context window. */
const OVERFLOW = [
  /context[ _-]?length/i,
  /context[ _-]?window/i,
  /maximum context/i,
  /prompt is too long/i,
  /input is too long/i,
  /too many (input )?tokens/i,
  /exceeds? the (maximum|max) (number of )?tokens/i,
  /reduce the length of the messages/i,
  /request too large/i,
];

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'UND_ERR_SOCKET', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Sorts a provider's error into what the shell can do about it: wait and retry (429, 5xx, 408,
 * network failures, a connection reset mid-stream, a stream that broke off or carried malformed
 * data; with the provider's Retry-After), compact (context-length errors, 413), or give up
 * (everything else: bad key, bad request).
 */
export function classifyModelError(error: unknown): ModelError {
  // By its marker, not `instanceof`: another copy of @tiller/core makes the same error with another class.
  if (ModelError.isInstance(error)) return error;
  if (RetryError.isInstance(error)) return classifyModelError(error.lastError);
  const message = describe(error);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode;
    const text = `${error.message} ${error.responseBody ?? ''}`;
    if (status === 413 || OVERFLOW.some((re) => re.test(text))) return new ModelError('overflow', message, { cause: error });
    if (status === 429 || status === 408 || status === 409 || (status !== undefined && status >= 500)) {
      return new ModelError('transient', message, { cause: error, retryAfterMs: retryAfterMs(error.responseHeaders) });
    }
    // The SDK's own judgement too: a connection reset while reading a stream comes with status 200.
    if (error.isRetryable || isNetworkError(error.cause)) return new ModelError('transient', message, { cause: error });
    return new ModelError('fatal', message, { cause: error });
  }
  if (isNetworkError(error)) return new ModelError('transient', message, { cause: error });
  // A stream that broke off, ended before it sent anything, or carried data that does not parse:
  // the next attempt usually gets a whole one.
  if (JSONParseError.isInstance(error) || InvalidResponseDataError.isInstance(error) || TypeValidationError.isInstance(error) || NoOutputGeneratedError.isInstance(error)) {
    return new ModelError('transient', `the model's stream was malformed or broke off: ${message}`, { cause: error });
  }
  if (OVERFLOW.some((re) => re.test(message))) return new ModelError('overflow', message, { cause: error });
  return new ModelError('fatal', message, { cause: error });
}

/** Retry-After in milliseconds: `retry-after-ms`, or `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Record<string, string> | undefined, nowMs = Date.now()): number | undefined {
  if (!headers) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
    if (e instanceof TypeError && /fetch failed|network|terminated/i.test(e.message)) return true;
  }
  return false;
}

function describe(error: unknown): string {
  if (APICallError.isInstance(error)) return `${error.statusCode ?? 'no status'}: ${error.message}`;
  return describeThrown(error);
}
