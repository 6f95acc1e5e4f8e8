import type { SeededRandom } from './seeded-random.js';
import { WORDS } from './vocabulary.js';

/** A sentence of `count` words: capitalized, with a full stop. */
export function words(random: SeededRandom, count: number): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(random.pick(WORDS));
  const text = out.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1) + '.';
}

/** `lines` numbered lines of code, as pi's read tool shows a file. */
export function code(random: SeededRandom, codeLines: readonly string[], lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${String(i + 1).padStart(4)}\t${random.pick(codeLines)}`);
  return out.join('\n');
}

/** An opaque token of letters and digits: provider ids and signatures. */
export function token(random: SeededRandom, length: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[random.int(0, alphabet.length - 1)];
  return out;
}
