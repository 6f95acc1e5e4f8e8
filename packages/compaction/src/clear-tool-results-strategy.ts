import { currentContext, type Strategy } from './compaction-strategy.js';
import { entryRole } from './entry-roles.js';
import { estimateTokens } from './estimate-tokens.js';
import { carriedClearing, carriedStripThinking } from './prepare-compaction.js';

/** Old tool results keep their place (the call keeps its result) but lose their content. */
export const clearToolResults: Strategy = async (path, ctx, config) => {
  const { start, previous, previousIndex } = currentContext(path);
  if (start >= path.length) return null;
  let accumulated = 0;
  let tailStart = -1;
  for (let i = path.length - 1; i >= start; i--) {
    const role = entryRole(path[i]!);
    if (role.kind === 'none') continue;
    accumulated += estimateTokens(role.message, config.counter);
    if (accumulated >= config.keepRecentTokens) {
      tailStart = i;
      break;
    }
  }
  if (tailStart < 0) return null;
  const carried = new Set(carriedClearing(path, previous, previousIndex, start)?.entryIds ?? []);
  // Only results longer than the placeholder are worth clearing.
  const placeholderTokens = estimateTokens({ role: 'toolResult', toolCallId: '-', toolName: '-', content: [{ type: 'text', text: config.placeholder }], isError: false }, config.counter);
  const entryIds = new Set<string>();
  for (let i = start; i < tailStart; i++) {
    const entry = path[i]!;
    const role = entryRole(entry);
    if (role.kind !== 'toolResult' || carried.has(entry.id)) continue;
    if (estimateTokens(role.message, config.counter) <= placeholderTokens) continue;
    entryIds.add(entry.id);
  }
  if (entryIds.size === 0) return null;
  for (const id of carried) entryIds.add(id);
  return {
    summary: previous?.summary ?? '',
    firstKeptIndex: start,
    stripThinking: ctx.midRound || carriedStripThinking(previous, previousIndex, start),
    dropped: [],
    cleared: { entryIds: [...entryIds], placeholder: config.placeholder },
    details: previous?.details,
  };
};
