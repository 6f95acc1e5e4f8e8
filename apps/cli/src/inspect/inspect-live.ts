import type { InspectorLike } from '@tiller/shell';
import type { Io } from '../cli/command.js';
import type { InspectView } from './inspect-option.js';
import { printUrl, serveJournal } from './serve-journal.js';
import { startStatelyRelay } from './stately-relay.js';

/** A live run being watched, from before its first journal line until `close()`. */
export interface LiveInspection {
  url: string;
  /** What the agent is given: Stately's view is fed the shell's reports; the page reads the journal itself. */
  agentOptions: { inspect?: InspectorLike };
  close(): Promise<void>;
}

/**
 * Starts the view `--inspect` asked for and prints its URL: the inspector page following
 * `journalFile` as it is written, or Stately's relay. Started before the agent, so nothing the
 * run does is missed.
 */
export async function inspectLive(view: InspectView, journalFile: string, io: Io, where: { command: string; on: 'stdout' | 'stderr' }): Promise<LiveInspection> {
  switch (view) {
    case 'page': {
      const server = await serveJournal(journalFile, io, { follow: true, command: where.command, on: where.on });
      return { url: server.url, agentOptions: {}, close: () => server.close() };
    }
    case 'stately': {
      const relay = await startStatelyRelay();
      printUrl(io, where.on, "Stately's inspector:", `${relay.url} (it embeds stately.ai/inspect: online only)`);
      return { url: relay.url, agentOptions: { inspect: relay.inspector }, close: () => relay.close() };
    }
    default: {
      const unknown: never = view;
      throw new TypeError(`unknown inspector view ${JSON.stringify(unknown)}`);
    }
  }
}
