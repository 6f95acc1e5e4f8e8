import { APICallError, InvalidResponseDataError, JSONParseError } from '@ai-sdk/provider';
import { NoOutputGeneratedError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyModelError, retryAfterMs } from './classify-model-error.js';

const apiError = (statusCode: number, message: string, responseHeaders?: Record<string, string>, responseBody?: string) =>
  new APICallError({ message, url: 'http://127.0.0.1/v1/chat/completions', requestBodyValues: {}, statusCode, responseHeaders, responseBody });

describe('classifyModelError', () => {
  it('retries rate limits, timeouts and server errors, with the Retry-After the provider gave', () => {
    expect(classifyModelError(apiError(429, 'slow down', { 'Retry-After': '2' }))).toMatchObject({ kind: 'transient', retryAfterMs: 2000 });
    expect(classifyModelError(apiError(529, 'overloaded', { 'retry-after-ms': '150' }))).toMatchObject({ kind: 'transient', retryAfterMs: 150 });
    expect(classifyModelError(apiError(500, 'oops'))).toMatchObject({ kind: 'transient', retryAfterMs: undefined });
    expect(classifyModelError(apiError(408, 'timeout'))).toMatchObject({ kind: 'transient' });
  });

  it('sees the providers\' context-length errors as overflow', () => {
    expect(classifyModelError(apiError(400, 'Bad Request', undefined, '{"error":{"code":"context_length_exceeded"}}')).kind).toBe('overflow');
    expect(classifyModelError(apiError(400, 'prompt is too long: 210000 tokens > 200000 maximum')).kind).toBe('overflow');
    expect(classifyModelError(apiError(400, 'The input token count exceeds the maximum number of tokens allowed')).kind).toBe('overflow');
    expect(classifyModelError(apiError(413, 'Payload Too Large')).kind).toBe('overflow');
  });

  it('retries network failures and gives up on the rest', () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) });
    expect(classifyModelError(refused).kind).toBe('transient');
    expect(classifyModelError(apiError(401, 'Invalid API key')).kind).toBe('fatal');
    expect(classifyModelError(apiError(400, 'unknown field "foo"')).kind).toBe('fatal');
    expect(classifyModelError(new Error('something odd')).kind).toBe('fatal');
  });

  it('retries a connection reset mid-stream (status 200), a stream that broke off, and malformed stream data', () => {
    const reset = new APICallError({
      message: 'Failed to process successful response',
      url: 'http://127.0.0.1/v1/chat/completions',
      requestBodyValues: {},
      statusCode: 200,
      isRetryable: true,
      cause: Object.assign(new TypeError('terminated'), { cause: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
    });
    expect(classifyModelError(reset).kind).toBe('transient');
    expect(classifyModelError(Object.assign(new TypeError('terminated'), { cause: { code: 'UND_ERR_SOCKET' } })).kind).toBe('transient');
    expect(classifyModelError(new InvalidResponseDataError({ data: undefined, message: 'Response stream ended without a finish reason.' })).kind).toBe('transient');
    expect(classifyModelError(new JSONParseError({ text: '{"choices":', cause: new SyntaxError('Unexpected end of JSON input') })).kind).toBe('transient');
  });

  it('retries a stream that ended before it sent anything (an empty 200)', () => {
    const empty = new NoOutputGeneratedError({ message: 'No output generated. The model stream ended without a finish chunk.' });
    expect(classifyModelError(empty)).toMatchObject({ kind: 'transient', message: expect.stringMatching(/malformed or broke off: No output generated/) });
  });
});

describe('retryAfterMs', () => {
  it('reads seconds, milliseconds and HTTP dates', () => {
    expect(retryAfterMs({ 'retry-after': '1.5' })).toBe(1500);
    expect(retryAfterMs({ 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' }, Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'))).toBe(10_000);
    expect(retryAfterMs({ 'retry-after': 'soon' })).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
