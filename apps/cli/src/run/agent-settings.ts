import { type Compactor, WindowManager } from '@tiller/compaction';
import { modelSummarizer, type TillerModel, type Tool } from '@tiller/shell';
import { usageError } from '../cli/errors.js';
import { fileTools } from '../tools/file-tools.js';

export const COMPACTORS = ['summarize', 'clearToolResults', 'keepTail', 'none'] as const;
export type CompactorChoice = (typeof COMPACTORS)[number];

/**
 * The compactor for `--compactor`: a WindowManager over the model's window (the model itself
 * writes the summaries), or none. The default is summarize when the window is known.
 */
export function compactorFor(choice: CompactorChoice | undefined, model: TillerModel): Compactor<any> | undefined {
  const window = model.contextWindow;
  const strategy = choice ?? (window ? 'summarize' : 'none');
  if (strategy === 'none') return undefined;
  if (!window) throw usageError(`tiller run: --compactor ${strategy} needs the model's context window; give --window N`);
  // pi's defaults where they fit; a small window keeps a quarter for the summary and a quarter verbatim.
  const reserveTokens = Math.min(16_384, Math.floor(window / 4));
  const keepRecentTokens = Math.min(20_000, Math.floor(window / 4));
  return WindowManager({ strategy, contextWindow: window, reserveTokens, keepRecentTokens, ...(strategy === 'summarize' ? { summarizer: modelSummarizer(model) } : {}) });
}

/** `--tools`: `all` (the default), `none`, or a comma-separated list of built-in tool names. */
export function toolsFor(choice: string | undefined, workspace: string): Tool[] {
  const all = fileTools(workspace);
  if (choice === undefined || choice === 'all') return all;
  if (choice === 'none') return [];
  const names = choice.split(',').map((n) => n.trim()).filter(Boolean);
  const unknown = names.filter((n) => !all.some((t) => t.name === n));
  if (unknown.length > 0) throw usageError(`tiller run: --tools: no built-in tool ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the tools are ${all.map((t) => t.name).join(', ')} (or all, none)`);
  return all.filter((t) => names.includes(t.name));
}

export const systemPromptFor = (workspace: string) =>
  `You are a coding agent working in the folder ${workspace}. Use the tools to list, read, write and edit its files: read before you edit, keep changes small, and say briefly what you did.`;
