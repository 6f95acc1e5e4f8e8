import * as piIndex from '@mariozechner/pi-coding-agent';

/**
 * pi 0.73.1, the reference. `prepareCompaction` and `estimateContextTokens` are not exported from
 * pi's index (its `exports` map hides its other files), so they are loaded from the compaction
 * module beside the index that the package resolves to.
 */
export type PiEntry = piIndex.SessionEntry;
export type PiMessage = piIndex.SessionContext['messages'][number];
export type PiSettings = typeof piIndex.DEFAULT_COMPACTION_SETTINGS;

interface PiCompactionModule {
  prepareCompaction(path: PiEntry[], settings: PiSettings): unknown;
  estimateContextTokens(messages: PiMessage[]): { tokens: number };
}

const compactionModule = new URL('./core/compaction/compaction.js', import.meta.resolve('@mariozechner/pi-coding-agent'));
const internals = (await import(compactionModule.href)) as PiCompactionModule;

export interface PiReference extends PiCompactionModule {
  parseSessionEntries: typeof piIndex.parseSessionEntries;
  migrateSessionEntries: typeof piIndex.migrateSessionEntries;
  buildSessionContext: typeof piIndex.buildSessionContext;
  shouldCompact: typeof piIndex.shouldCompact;
  settings: PiSettings;
}

export const pi: PiReference = {
  parseSessionEntries: piIndex.parseSessionEntries,
  migrateSessionEntries: piIndex.migrateSessionEntries,
  buildSessionContext: piIndex.buildSessionContext,
  shouldCompact: piIndex.shouldCompact,
  settings: piIndex.DEFAULT_COMPACTION_SETTINGS,
  prepareCompaction: internals.prepareCompaction,
  estimateContextTokens: internals.estimateContextTokens,
};

/** What pi holds after opening a session file: its entries (migrated to format 3), header dropped, and its id index. */
export interface PiOpened {
  entries: PiEntry[];
  byId: Map<string, PiEntry>;
  leafId: string | null;
}

/**
 * Opening a session file as pi's SessionManager does, without its second read of the file: parse
 * the lines, migrate, index the entries by id. (`SessionManager.open` reads and parses the file
 * twice, so this is the faster of pi's ways.)
 */
export function piOpen(text: string): PiOpened {
  const fileEntries = piIndex.parseSessionEntries(text);
  piIndex.migrateSessionEntries(fileEntries);
  const entries: PiEntry[] = [];
  const byId = new Map<string, PiEntry>();
  let leafId: string | null = null;
  for (const entry of fileEntries) {
    if (entry.type === 'session') continue;
    entries.push(entry);
    byId.set(entry.id, entry);
    leafId = entry.id;
  }
  return { entries, byId, leafId };
}
