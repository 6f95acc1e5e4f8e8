import type { Effect } from './effects.js';

/** A short, stable description of an effect: what a divergence report shows. */
export function effectDigest(effect: Effect): string {
  switch (effect.type) {
    case 'persist':
      return `persist ${effect.entries.map((e) => e.id).join(',')}`;
    case 'emit':
      return `emit ${effect.event.type}`;
    case 'maybe_compact':
      return `maybe_compact ${effect.id} ${effect.reason}${effect.force ? ' force' : ''}${effect.midRound ? ' mid-round' : ''}`;
    case 'call_llm':
      return `call_llm ${effect.id} ${effect.context.length} messages${effect.final ? ' final' : ''}`;
    case 'run_tools':
      return `run_tools ${effect.id} ${effect.calls.map((c) => c.id).join(',')}`;
    case 'request_approval':
      return `request_approval ${effect.id} ${effect.calls.map((c) => c.id).join(',')}`;
    default: {
      const unknown: never = effect;
      throw new TypeError(`unknown effect ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * A hash of everything a step's effects say: the entries it appends, the events, the calls. A model
 * call's messages are counted, not hashed: they are built from entries the hashes of earlier steps
 * already cover. Not cryptographic; it tells a replay that differs from the recording.
 */
export function effectsHash(effects: readonly Effect[]): string {
  const content = effects.map((effect) => (effect.type === 'call_llm' ? { type: effect.type, id: effect.id, final: effect.final, messages: effect.context.length } : effect));
  return hash53(JSON.stringify(content)).toString(36);
}

/** A 53-bit string hash (cyrb53: two multiplicative 32-bit lanes mixed at the end). */
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
