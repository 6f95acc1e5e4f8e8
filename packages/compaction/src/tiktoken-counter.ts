import type { TokenCounter } from './token-counter.js';

/** The encodings js-tiktoken ships ranks for (`o200k_base`: GPT-4o, GPT-4.1, GPT-5, o-series). */
export type TiktokenEncoding = 'o200k_base' | 'cl100k_base';

/**
 * An exact counter backed by js-tiktoken, whose rank files ship with the package (no network).
 * js-tiktoken is an optional peer dependency: it is loaded only when this is called, and a host
 * that never asks for the exact counter does not need it.
 */
export async function loadTiktokenCounter(encoding: TiktokenEncoding = 'o200k_base'): Promise<TokenCounter> {
  const [{ Tiktoken }, ranks] = await Promise.all([fromTiktoken(() => import('js-tiktoken/lite')), fromTiktoken(() => loadRanks(encoding))]);
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

/** Turns "module not found" for the optional peer into an error that says what to install. */
async function fromTiktoken<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && String((error as Error).message).includes('js-tiktoken')) {
      throw new Error('loadTiktokenCounter needs js-tiktoken, an optional peer dependency of @tiller/compaction: install it beside @tiller/compaction (npm install js-tiktoken@^1.0.21)', { cause: error });
    }
    throw error;
  }
}
