import { randomUUID } from 'node:crypto';
import { buildContext, type CustomEntry, type Entry, type Message } from '@tiller/core';
import { CustomTypes, type LabelData, type SessionNameData } from './custom-types.js';
import { z } from 'zod';
import { checkOptions } from './check-options.js';
import { AppendError, SessionOptionsError, UnknownEntryError } from './errors/index.js';
import type { ReadWarning } from './read-warning.js';
import type { SessionStore } from './store.js';
import { addChild, entryTree, type TreeNode } from './entry-tree.js';
import { labelChange } from './labels.js';
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
  return new EntryLog(store);
}

/** The log behind `createSessionLog`: a class, so its methods and accessors live once on the prototype rather than in every log. */
class EntryLog implements SessionLog {
  readonly store: SessionStore;
  readonly warnings: readonly ReadWarning[];
  readonly #all: Entry[];
  readonly #byId: Map<string, Entry>;
  // Made with the first label: most sessions never get one.
  #labels: Map<string, string> | undefined;
  #sessionName: string | undefined;
  // Built on first use: opening a long session should not pay for listings nobody asked for.
  #childIndex: Map<string | null, Entry[]> | undefined;
  #leafId: string | null;
  // The path to the leaf, once walked, kept in step with appends that continue it: a session is
  // read at its leaf over and over, and walking 100k parents through the index misses the cache
  // at every step. Dropped when the leaf moves elsewhere (`branch`, a batch off the leaf).
  #leafPath: Entry[] | undefined;
  #queue: Promise<void> = Promise.resolve();
  #closed = false;

  constructor(store: SessionStore) {
    this.store = store;
    this.#all = [...store.entries];
    // A store that indexed its entries while loading them hands the index over: no second pass.
    const adopted = store.takeIndex?.();
    this.warnings = store.warnings ?? [];
    this.#byId = adopted ?? new Map<string, Entry>();
    if (!adopted) indexStoreEntries(this.#all, this.#byId);
    for (const entry of this.#all) if (entry.kind === 'custom') this.#noteCustom(entry);
    this.#leafId = this.#all.at(-1)?.id ?? null;
  }

  get leafId(): string | null {
    return this.#leafId;
  }

  get sessionName(): string | undefined {
    return this.#sessionName;
  }

  get size(): number {
    return this.#all.length;
  }

  get(id: string): Entry | undefined {
    return this.#byId.get(id);
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  entries(): readonly Entry[] {
    return this.#all;
  }

  append(batch: readonly Entry[]): Promise<void> {
    if (this.#closed) return Promise.reject(new AppendError('closed', batch[0]?.id ?? '', 'the session log is closed'));
    const job = this.#queue.then(async () => {
      if (this.store.readOnly) throw new AppendError('read_only', batch[0]?.id ?? '', 'the session was opened read-only');
      validateBatch(batch, (id) => this.#byId.has(id));
      if (batch.length === 0) return;
      await this.store.append(batch);
      for (const entry of batch) this.#index(entry);
      this.#extendLeafPath(batch);
      this.#leafId = batch[batch.length - 1]!.id;
    });
    // A failed append must not block the ones after it.
    this.#queue = job.catch(() => undefined);
    return job;
  }

  /** A path of the caller's own: the kept leaf path is copied, a walked one is fresh already. */
  path(target: string | null = this.#leafId): Entry[] {
    const entries = this.#readPath(target);
    return entries === this.#leafPath ? entries.slice() : entries;
  }

  // A batch open at the leaf is shown as it stands: a turn may be running it.
  context(target: string | null = this.#leafId): Message[] {
    return buildContext(this.#readPath(target), { openBatch: 'leave' });
  }

  branch(fromEntryId: string | null): void {
    if (fromEntryId !== null) this.#requireEntry(fromEntryId);
    if (fromEntryId !== this.#leafId) this.#leafPath = undefined;
    this.#leafId = fromEntryId;
  }

  children(id: string): Entry[] {
    this.#requireEntry(id);
    return [...(this.#children().get(id) ?? [])];
  }

  roots(): Entry[] {
    return [...(this.#children().get(null) ?? [])];
  }

  tree(): TreeNode[] {
    return entryTree(this.#all, this.#labels ?? new Map());
  }

  labelOf(id: string): string | undefined {
    return this.#labels?.get(id);
  }

  async setLabel(targetId: string, label: string | undefined, options: NewEntryOptions = {}): Promise<CustomEntry> {
    const checked = checkOptions('setLabel', NewEntryOptionsSchema, options);
    if (label !== undefined && typeof label !== 'string') throw new SessionOptionsError('setLabel', 'label', `expected a string or undefined, got ${typeof label}`);
    this.#requireEntry(targetId);
    const data: LabelData = label === undefined ? { targetId } : { targetId, label };
    return this.#appendCustom(CustomTypes.label, data, checked);
  }

  async setSessionName(name: string | undefined, options: NewEntryOptions = {}): Promise<CustomEntry> {
    const checked = checkOptions('setSessionName', NewEntryOptionsSchema, options);
    if (name !== undefined && typeof name !== 'string') throw new SessionOptionsError('setSessionName', 'name', `expected a string or undefined, got ${typeof name}`);
    const data: SessionNameData = name === undefined ? {} : { name };
    return this.#appendCustom(CustomTypes.sessionName, data, checked);
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#queue;
    await this.store.close();
  }

  #index(entry: Entry): void {
    this.#all.push(entry);
    this.#byId.set(entry.id, entry);
    if (entry.kind === 'custom') this.#noteCustom(entry);
    if (this.#childIndex) addChild(this.#childIndex, entry, this.#byId);
  }

  #noteCustom(entry: CustomEntry): void {
    const label = labelChange(entry);
    if (label) {
      if (label.label === undefined) this.#labels?.delete(label.targetId);
      else (this.#labels ??= new Map()).set(label.targetId, label.label);
    } else if (entry.customType === CustomTypes.sessionName) {
      const name = (entry.data as SessionNameData | undefined)?.name;
      this.#sessionName = typeof name === 'string' && name.trim() ? name.trim() : undefined;
    }
  }

  #requireEntry(id: string): Entry {
    const entry = this.#byId.get(id);
    if (!entry) throw new UnknownEntryError(id);
    return entry;
  }

  #children(): Map<string | null, Entry[]> {
    if (!this.#childIndex) {
      this.#childIndex = new Map();
      for (const entry of this.#all) addChild(this.#childIndex, entry, this.#byId);
    }
    return this.#childIndex;
  }

  #walk(target: string): Entry[] {
    const out: Entry[] = [];
    // A parent that is missing (a line a damaged file lost) ends the walk, as a root would.
    for (let entry: Entry | undefined = this.#requireEntry(target); entry; entry = entry.parentId === null ? undefined : this.#byId.get(entry.parentId)) {
      out.push(entry);
    }
    return out.reverse();
  }

  /** The path to `target`: when that is the leaf, the kept array itself, which callers only read. */
  #readPath(target: string | null): Entry[] {
    if (target === null) return [];
    if (target !== this.#leafId) return this.#walk(target);
    return (this.#leafPath ??= this.#walk(target));
  }

  /** Keeps `leafPath` the path to the new leaf after `batch` was indexed, when the batch continues it. */
  #extendLeafPath(batch: readonly Entry[]): void {
    let tip = this.#leafId;
    for (const entry of batch) {
      if (entry.parentId !== tip) {
        this.#leafPath = undefined;
        return;
      }
      this.#leafPath?.push(entry);
      tip = entry.id;
    }
  }

  async #appendCustom(customType: string, data: unknown, options: NewEntryOptions): Promise<CustomEntry> {
    const entry: CustomEntry = {
      id: options.id ?? randomUUID(),
      parentId: this.#leafId,
      at: options.at ?? new Date().toISOString(),
      kind: 'custom',
      customType,
      data,
    };
    await this.append([entry]);
    return entry;
  }
}
