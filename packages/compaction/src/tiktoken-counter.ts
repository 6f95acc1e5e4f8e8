import type { TokenCounter } from './token-counter.js';

/** The encodings js-tiktoken ships ranks for (`o200k_base`: GPT-4o, GPT-4.1, GPT-5, o-series). */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

/**
 * An exact counter backed by js-tiktoken, whose rank files ship with the package (no network).
 * js-tiktoken is an optional dependency: it is loaded only when this is called.
 */
export async function loadTiktokenCounter(encoding: TiktokenEncoding = 'o200k_base'): Promise<TokenCounter> {
  const [{ Tiktoken }, ranks] = await Promise.all([import('js-tiktoken/lite'), loadRanks(encoding)]);
  const tokenizer = new Tiktoken(ranks);
  return {
    name: encoding,
    // Special-token text inside a conversation is just text: count it, never reject it.
    count: (text) => (text.length === 0 ? 0 : tokenizer.encode(text, [], []).length),
  };
}

async function loadRanks(encoding: TiktokenEncoding) {
  switch (encoding) {
    case 'o200k_base':
      return (await import('js-tiktoken/ranks/o200k_base')).default;
    case 'cl100k_base':
      return (await import('js-tiktoken/ranks/cl100k_base')).default;
    default: {
      const unknownEncoding: never = encoding;
      throw new TypeError(`unknown tiktoken encoding ${String(unknownEncoding)}`);
    }
  }
}
