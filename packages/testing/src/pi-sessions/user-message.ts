import { words } from './generated-text.js';
import { appendMessage, type SessionState } from './session-state.js';
import { CJK, PNG } from './vocabulary.js';

/** A user message: `fixed` text, or a made-up request, in a rich session sometimes with CJK text or an image. */
export function appendUserMessage(state: SessionState, fixed?: string): void {
  const { random } = state;
  let text = fixed ?? words(random, random.int(6, 60));
  const cjk = state.rich && fixed === undefined && random.chance(0.15);
  if (cjk) {
    text = `${text} ${random.pick(CJK)}${random.pick(CJK)}`;
    state.counts.cjkMessages += 1;
  }
  const parts: unknown[] = [{ type: 'text', text }];
  if (state.rich && fixed === undefined && random.chance(0.08)) {
    parts.push({ type: 'image', data: PNG, mimeType: 'image/png' });
    state.counts.images += 1;
  }
  // Format 1 wrote content as a list of parts; later pi also writes a plain string.
  const content = state.options.format === 3 && parts.length === 1 && random.chance(0.5) ? text : parts;
  appendMessage(state, { role: 'user', content }, true, text.length, true);
  state.counts.userMessages += 1;
}
