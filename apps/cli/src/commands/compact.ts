import { type CompactionStrategyName, WindowManager } from '@tiller/compaction';
import type { Entry } from '@tiller/core';
import { modelSummarizer } from '@tiller/shell';
import { defineCommand } from '../cli/command.js';
import { ExitCode, usageError } from '../cli/errors.js';
import { sayReadWarnings } from '../cli/read-warnings.js';
import { oneOf, positiveInteger } from '../cli/parse-command-line.js';
import { chooseModel, MODEL_OPTIONS } from '../model/choose-model.js';
import { appendToSessionFile, closeSession, openSession } from '../sessions/open-session.js';
import { describeEntry, shortId } from '../view/describe-entry.js';
import { formatTokens } from '../view/describe.js';

const STRATEGIES = ['summarize', 'clearToolResults', 'keepTail'] as const satisfies readonly CompactionStrategyName[];
/** pi's defaults: room for the summary, and the recent messages kept verbatim. */
const DEFAULT_RESERVE = 16_384;
const DEFAULT_KEEP = 20_000;

export const compactCommand = defineCommand({
  name: 'compact',
  summary: 'compact a Tiller or pi session: append a compaction entry, delete nothing',
  args: '<session>',
  positionals: { min: 1, max: 1 },
  description: [
    'Says which entries leave the context and the tokens before and after, then appends one',
    'compaction entry to the file (in pi\'s own format for a pi session). Nothing is deleted: the',
    'log keeps every entry. Without --window it compacts now; with --window N only when the',
    'context no longer fits a model with that window. --dry-run leaves the file as it was, byte',
    'for byte. The summarize strategy needs a model (--model or --base-url).',
  ].join('\n'),
  options: {
    strategy: { type: 'string', short: 's', value: 'S', description: 'summarize, clearToolResults or keepTail (default keepTail; it needs no model)' },
    window: { type: 'string', short: 'w', value: 'N', description: 'compact only if the context does not fit this window (tokens)' },
    keep: { type: 'string', value: 'N', description: `tokens of recent messages kept verbatim (default ${formatTokens(DEFAULT_KEEP)}, at most a quarter of --window)` },
    'dry-run': { type: 'boolean', short: 'n', description: 'say what would happen; write nothing' },
    ...MODEL_OPTIONS,
  },
  async run({ positionals, options }, io) {
    const strategy = oneOf('compact', 'strategy', options.strategy, STRATEGIES) ?? 'keepTail';
    const window = positiveInteger('compact', 'window', options.window);
    const keep = positiveInteger('compact', 'keep', options.keep);
    const dryRun = options['dry-run'] === true;
    const summarizer = strategy === 'summarize' ? modelSummarizer(chooseModel('compact', { model: options.model, baseUrl: options['base-url'], window }, io.env)) : undefined;
    const session = await openSession(positionals[0]!, { write: !dryRun });
    try {
      sayReadWarnings(io, session.warnings);
      if (session.format === 'pi' && strategy === 'clearToolResults') {
        throw usageError('tiller compact: pi sessions cannot record cleared tool results (pi would still send them); use --strategy keepTail or summarize');
      }
      const write = (text: string) => io.stdout.write(`${text}\n`);
      const path = session.log.path();
      if (path.length === 0) {
        write('nothing to compact: the session is empty');
        return ExitCode.ok;
      }
      const keepRecentTokens = Math.max(1, Math.min(keep ?? DEFAULT_KEEP, window ? Math.floor(window / 4) : Infinity));
      const reserveTokens = Math.min(DEFAULT_RESERVE, window ? Math.floor(window / 4) : DEFAULT_RESERVE);
      const compactor = WindowManager({
        strategy,
        contextWindow: window ?? Number.MAX_SAFE_INTEGER,
        reserveTokens,
        keepRecentTokens,
        ...(summarizer ? { summarizer } : {}),
      });
      const { meta } = await compactor.maybeCompact({ path }, { model: options.model ?? 'unknown', window, promptTokens: 0, midRound: false, force: window === undefined, reason: 'manual' });
      if (!meta.compacted) {
        if (meta.error) throw new Error(`the compaction failed: ${meta.error.message}`);
        write(`nothing to compact: ${meta.skipped ?? `the context fits the ${formatTokens(window ?? 0)}-token window (it compacts above ${formatTokens((window ?? 0) - reserveTokens)})`}`);
        return ExitCode.ok;
      }
      const { out } = io;
      const cleared = new Set(meta.clearedEntryIds);
      write(`${out.bold(`${meta.strategy}`)}: ${formatTokens(meta.tokensBefore)} → ${formatTokens(meta.tokensAfter)} tokens (${formatTokens(meta.tokensRemoved)} fewer)`);
      if (meta.dropped.length > 0) {
        write(`leaves the context (${meta.dropped.length} entries; the log keeps them):`);
        for (const entry of meta.dropped) write(`  ○ ${shortId(entry.id).padEnd(11)}  ${describeEntry(entry)}`);
      }
      if (cleared.size > 0) {
        write(`tool results cleared to a placeholder (${cleared.size}):`);
        for (const entry of path.filter((e: Entry) => cleared.has(e.id))) write(`  ◌ ${shortId(entry.id).padEnd(11)}  ${describeEntry(entry)}`);
      }
      const entry = meta.appended[0]!;
      if (dryRun) {
        write(out.dim(`dry run: nothing was written to ${session.path}`));
        return ExitCode.ok;
      }
      await appendToSessionFile(session, meta.appended);
      // The store cut a torn last line off before appending: that line was never a whole entry, but its bytes are gone.
      const torn = session.format === 'tiller' ? session.tornLine : undefined;
      const deleted = torn === undefined ? 'nothing was deleted' : `the torn last line (line ${torn}, never a whole entry) was cut off, nothing else was deleted`;
      write(`appended compaction ${entry.id} to ${session.path} (${session.format} format); ${deleted}`);
      return ExitCode.ok;
    } finally {
      await closeSession(session);
    }
  },
});
