import type { Effect } from '@tiller/core';

/**
 * The hash the shell records for a step's effects from journal version 3 on (its
 * `effectsHash`): everything the effects say, a model call's messages counted rather than hashed
 * (earlier steps' hashes cover the entries they are built from). It must stay the shell's, bit for
 * bit: the replay test over recorded journals fails when they part.
 */
export function effectsHash(effects: readonly Effect[]): string {
  const content = effects.map((effect) =>
    effect.type === 'call_llm' ? { type: effect.type, id: (effect as { id?: string }).id, final: effect.final, messages: effect.context.length } : effect,
  );
  return hash53(JSON.stringify(content)).toString(36);
}

/** cyrb53: a 53-bit string hash from two multiplicative 32-bit lanes mixed at the end. Not cryptographic. */
function hash53(text: string): number {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
