import { randomUUID } from 'node:crypto';
import { buildContext, type CustomEntry, type Entry, type Message } from '@tiller/core';
import { CustomTypes, type LabelData, type SessionNameData } from './custom-types.js';
import { z } from 'zod';
import { checkOptions } from './check-options.js';
import { AppendError, SessionOptionsError, UnknownEntryError } from './errors.js';
import type { ReadWarning } from './read-warning.js';
import type { SessionStore } from './store.js';
import { addChild, entryTree, type TreeNode } from './entry-tree.js';
import { checkStore, indexStoreEntries } from './store-check.js';
import { validateBatch } from './validate-batch.js';

/** Id and time for an entry the log writes itself (labels, the name); generated when omitted. */
export interface NewEntryOptions {
  id?: string;
  at?: string;
}

export interface SessionLog {
  readonly store: SessionStore;
  /** Where the next turn continues: the last appended entry, or where `branch` moved it; null before the first. */
  readonly leafId: string | null;
  /** The latest session name, if one was set. */
  readonly sessionName: string | undefined;
  /** Number of entries. */
  readonly size: number;
  /**
   * What opening the store skipped or changed, each with its file, line, field and reason: a
   * torn last line, corrupt lines, repeated ids, entries kept as roots because their parent was
   * lost. Empty for a clean file. A host shows these to its user; nothing is printed.
   */
  readonly warnings: readonly ReadWarning[];
  get(id: string): Entry | undefined;
  has(id: string): boolean;
  /** All entries in the order they were appended (parents before children). */
  entries(): readonly Entry[];
  /**
   * Appends a batch after checking it (unique ids, parents present, valid entries); nothing is
   * written when a check fails. Appends run one after another in call order. The leaf moves to
   * the batch's last entry.
   */
  append(entries: readonly Entry[]): Promise<void>;
  /** Root to `leafId` (default: the leaf). Empty for a null leaf. */
  path(leafId?: string | null): Entry[];
  /**
   * The messages the model sees at `leafId` (default: the leaf): `buildContext` of the path, so a
   * damaged transcript comes repaired (see `repairTranscript`). A tool batch still open at the
   * leaf is shown as it stands, since a turn may be running it; a turn's own context settles it.
   */
  context(leafId?: string | null): Message[];
  /** Continues from an earlier entry: the leaf moves there; the old branch stays. Null starts a new root. */
  branch(fromEntryId: string | null): void;
  /** Entries whose parent is `id`, in append order. */
  children(id: string): Entry[];
  /** Entries without a parent, in append order. */
  roots(): Entry[];
  /** The whole tree for listing, labels resolved. */
  tree(): TreeNode[];
  labelOf(id: string): string | undefined;
  /** Sets (or with `undefined` clears) the label of an entry; stored as a `tiller.label` entry at the leaf. */
  setLabel(targetId: string, label: string | undefined, options?: NewEntryOptions): Promise<CustomEntry>;
  /** Names the session (a blank name clears it); stored as a `tiller.session_name` entry at the leaf. */
  setSessionName(name: string | undefined, options?: NewEntryOptions): Promise<CustomEntry>;
  /** Waits for pending appends, then closes the store. */
  close(): Promise<void>;
}

const NewEntryOptionsSchema = z.strictObject({
  id: z.string().min(1, 'expected a non-empty string').optional(),
  at: z.string().min(1, 'expected a non-empty string').optional(),
});

/**
 * The entry tree over a store. Indexes entries by id, so `path` costs the length of the path
 * (walk the parents, reverse once) and `append` costs the size of the batch, at any log size.
 */
export function createSessionLog(store: SessionStore): SessionLog {
  checkStore(store);
  const all: Entry[] = [...store.entries];
  // A store that indexed its entries while loading them hands the index over: no second pass.
  const adopted = store.takeIndex?.();
  const warnings: readonly ReadWarning[] = store.warnings ?? [];
  const byId = adopted ?? new Map<string, Entry>();
  const labels = new Map<string, string>();
  let sessionName: string | undefined;
  // Built on first use: opening a long session should not pay for listings nobody asked for.
  let childIndex: Map<string | null, Entry[]> | undefined;
  let leafId: string | null = null;
  // The path to the leaf, once walked, kept in step with appends that continue it: a session is
  // read at its leaf over and over, and walking 100k parents through the index misses the cache
  // at every step. Dropped when the leaf moves elsewhere (`branch`, a batch off the leaf).
  let leafPath: Entry[] | undefined;
  let queue: Promise<void> = Promise.resolve();
  let closed = false;

  const index = (entry: Entry) => {
    all.push(entry);
    byId.set(entry.id, entry);
    if (entry.kind === 'custom') noteCustom(entry);
    if (childIndex) addChild(childIndex, entry, byId);
  };

  const noteCustom = (entry: CustomEntry) => {
    if (entry.customType === CustomTypes.label) {
      const data = entry.data as LabelData | undefined;
      if (!data || typeof data.targetId !== 'string') return;
      const label = typeof data.label === 'string' ? data.label.trim() : '';
      if (label) labels.set(data.targetId, label);
      else labels.delete(data.targetId);
    } else if (entry.customType === CustomTypes.sessionName) {
      const name = (entry.data as SessionNameData | undefined)?.name;
      sessionName = typeof name === 'string' && name.trim() ? name.trim() : undefined;
    }
  };

  if (!adopted) indexStoreEntries(all, byId);
  for (const entry of all) if (entry.kind === 'custom') noteCustom(entry);
  leafId = all.at(-1)?.id ?? null;

  const requireEntry = (id: string): Entry => {
    const entry = byId.get(id);
    if (!entry) throw new UnknownEntryError(id);
    return entry;
  };

  const children = (): Map<string | null, Entry[]> => {
    if (!childIndex) {
      childIndex = new Map();
      for (const entry of all) addChild(childIndex, entry, byId);
    }
    return childIndex;
  };

  const walk = (target: string): Entry[] => {
    const out: Entry[] = [];
    // A parent that is missing (a line a damaged file lost) ends the walk, as a root would.
    for (let entry: Entry | undefined = requireEntry(target); entry; entry = entry.parentId === null ? undefined : byId.get(entry.parentId)) {
      out.push(entry);
    }
    return out.reverse();
  };

  /** The path to `target`: when that is the leaf, the kept array itself, which callers only read. */
  const readPath = (target: string | null): Entry[] => {
    if (target === null) return [];
    if (target !== leafId) return walk(target);
    return (leafPath ??= walk(target));
  };

  /** A path of the caller's own: the kept leaf path is copied, a walked one is fresh already. */
  const path = (target: string | null | undefined = leafId): Entry[] => {
    const entries = readPath(target);
    return entries === leafPath ? entries.slice() : entries;
  };

  /** Keeps `leafPath` the path to the new leaf after `batch` was indexed, when the batch continues it. */
  const extendLeafPath = (batch: readonly Entry[]) => {
    let tip = leafId;
    for (const entry of batch) {
      if (entry.parentId !== tip) {
        leafPath = undefined;
        return;
      }
      leafPath?.push(entry);
      tip = entry.id;
    }
  };

  const appendCustom = async (customType: string, data: unknown, options: NewEntryOptions): Promise<CustomEntry> => {
    const entry: CustomEntry = {
      id: options.id ?? randomUUID(),
      parentId: leafId,
      at: options.at ?? new Date().toISOString(),
      kind: 'custom',
      customType,
      data,
    };
    await log.append([entry]);
    return entry;
  };

  const log: SessionLog = {
    store,
    get leafId() {
      return leafId;
    },
    get sessionName() {
      return sessionName;
    },
    get size() {
      return all.length;
    },
    warnings,
    get: (id) => byId.get(id),
    has: (id) => byId.has(id),
    entries: () => all,
    append(batch) {
      if (closed) return Promise.reject(new AppendError('closed', batch[0]?.id ?? '', 'the session log is closed'));
      const job = queue.then(async () => {
        if (store.readOnly) throw new AppendError('read_only', batch[0]?.id ?? '', 'the session was opened read-only');
        validateBatch(batch, (id) => byId.has(id));
        if (batch.length === 0) return;
        await store.append(batch);
        for (const entry of batch) index(entry);
        extendLeafPath(batch);
        leafId = batch[batch.length - 1]!.id;
      });
      // A failed append must not block the ones after it.
      queue = job.catch(() => undefined);
      return job;
    },
    path,
    // A batch open at the leaf is shown as it stands: a turn may be running it.
    context: (target = leafId) => buildContext(readPath(target), { openBatch: 'leave' }),
    branch(fromEntryId) {
      if (fromEntryId !== null) requireEntry(fromEntryId);
      if (fromEntryId !== leafId) leafPath = undefined;
      leafId = fromEntryId;
    },
    children(id) {
      requireEntry(id);
      return [...(children().get(id) ?? [])];
    },
    roots: () => [...(children().get(null) ?? [])],
    tree: () => entryTree(all, labels),
    labelOf: (id) => labels.get(id),
    async setLabel(targetId, label, options = {}) {
      const checked = checkOptions('setLabel', NewEntryOptionsSchema, options);
      if (label !== undefined && typeof label !== 'string') throw new SessionOptionsError('setLabel', 'label', `expected a string or undefined, got ${typeof label}`);
      requireEntry(targetId);
      const data: LabelData = label === undefined ? { targetId } : { targetId, label };
      return appendCustom(CustomTypes.label, data, checked);
    },
    async setSessionName(name, options = {}) {
      const checked = checkOptions('setSessionName', NewEntryOptionsSchema, options);
      if (name !== undefined && typeof name !== 'string') throw new SessionOptionsError('setSessionName', 'name', `expected a string or undefined, got ${typeof name}`);
      const data: SessionNameData = name === undefined ? {} : { name };
      return appendCustom(CustomTypes.sessionName, data, checked);
    },
    async close() {
      closed = true;
      await queue;
      await store.close();
    },
  };
  return log;
}
