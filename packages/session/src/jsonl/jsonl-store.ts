import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Entry } from '@tiller/core';
import { z } from 'zod';
import { checkOptions } from '../check-options.js';
import { AppendError, SessionFileError, SessionOptionsError } from '../errors/index.js';
import type { ReadWarning } from '../read-warning.js';
import type { SessionStore } from '../store.js';
import { appendFailed, type EntryNames, joinNames, NO_ENTRIES, refusedAfterSyncFailure, syncFailed, type SyncFailure, withEntries } from './append-failure.js';
import { acquireLock, type FileLock, lockRefused } from './file-lock.js';
import { notAFolder } from './file-in-the-way.js';
import { SESSION_FORMAT_VERSION, serializeEntry, type SessionFileHeader } from './format.js';
import { parseSessionFile } from './parse-session-file.js';
import { readRange } from './read-range.js';
import { notFound, openSessionFile } from './session-file.js';

/**
 * When appended entries reach the disk itself (not only the operating system's cache):
 * - `always`: before `append` resolves (fdatasync per append). A resolved append survives a crash
 *   of the process and of the machine.
 * - `batch`: within `batchIntervalMs` after the append, and on close. A resolved append survives
 *   a crash of the process; a power loss can take the appends of the last interval. A sync that
 *   fails is told by the next append, flush or close, and the store takes no more appends.
 * - `never`: when the operating system decides. A resolved append survives a crash of the
 *   process only.
 */
export type Durability = 'always' | 'batch' | 'never';

export interface JsonlStoreOptions {
  /** Default `always`. */
  fsync?: Durability;
  /** For `fsync: 'batch'`: how long an append may wait for its fsync. Default 200 ms. */
  batchIntervalMs?: number;
  /** Fail on the first bad line instead of skipping it with a warning. Default false. */
  strict?: boolean;
  /** Only read: no lock is taken, nothing is ever written, `append` refuses. Default false. */
  readOnly?: boolean;
  /**
   * Whether a missing file may be created. Default false: the file must exist, and a missing one
   * fails with a `SessionFileError` (code `not_found`) naming the path, so a mistyped path never
   * starts an empty session. `true`, or `{id?, createdAt?}` for the new header (default a random
   * UUID and now): a missing file is created; an existing one is opened as it is.
   */
  create?: boolean | CreateOptions;
}

export interface CreateOptions {
  /** The new session's id: a non-empty string. Default a random UUID. */
  id?: string;
  /** The new session's creation time: a non-empty string (ISO 8601 by convention). Default now. */
  createdAt?: string;
}

const JsonlStoreOptions = z.strictObject({
  fsync: z.enum(['always', 'batch', 'never']).optional(),
  batchIntervalMs: z.number().finite().nonnegative().optional(),
  strict: z.boolean().optional(),
  readOnly: z.boolean().optional(),
  create: z
    .union([
      z.boolean(),
      z.strictObject({
        id: z.string().min(1, 'expected a non-empty string').optional(),
        createdAt: z.string().min(1, 'expected a non-empty string').optional(),
      }),
    ], { error: 'expected true, false or {id?, createdAt?}' })
    .optional(),
});

/** A session in a JSONL file: a header line, then one entry per line. One writer at a time. */
export class JsonlStore implements SessionStore {
  readonly path: string;
  readonly header: SessionFileHeader;
  /** The format version the file is written in. */
  readonly version: number;
  readonly readOnly: boolean;
  readonly entries: readonly Entry[];
  /** What opening skipped: a torn last line, corrupt lines (with their line numbers). */
  readonly warnings: readonly ReadWarning[];
  readonly durability: Durability;

  #byId: Map<string, Entry> | undefined;
  #handle: FileHandle | undefined;
  #lock: FileLock | undefined;
  #queue: Promise<void> = Promise.resolve();
  /** Bytes past `#size` that are no whole entry (a torn line, part of a failed write): cut off before the next write. */
  #tailToCut: boolean;
  #needsNewline: boolean;
  /** Where the last whole entry ends: the next line is written there. */
  #size: number;
  #syncTimer: NodeJS.Timeout | undefined;
  /** The entries written since the last sync (none under `always`, which syncs each append): what a failed sync leaves in doubt. */
  #unsynced: EntryNames = NO_ENTRIES;
  /**
   * A sync that failed after its appends had resolved. From then on the store cannot say what is on
   * the disk, so it appends nothing more; the failure goes to every later append and flush, and to
   * `close` when nobody has heard it yet.
   */
  #syncFailure: SyncFailure | undefined;
  #syncFailureTold = false;
  #batchIntervalMs: number;
  #closed = false;

  private constructor(init: {
    path: string;
    header: SessionFileHeader;
    version: number;
    readOnly: boolean;
    entries: Entry[];
    byId: Map<string, Entry>;
    warnings: ReadWarning[];
    durability: Durability;
    batchIntervalMs: number;
    handle: FileHandle | undefined;
    lock: FileLock | undefined;
    tornBytes: number;
    needsNewline: boolean;
    size: number;
  }) {
    this.path = init.path;
    this.header = init.header;
    this.version = init.version;
    this.readOnly = init.readOnly;
    this.entries = init.entries;
    this.#byId = init.byId;
    this.warnings = init.warnings;
    this.durability = init.durability;
    this.#batchIntervalMs = init.batchIntervalMs;
    this.#handle = init.handle;
    this.#lock = init.lock;
    this.#tailToCut = init.tornBytes > 0;
    this.#needsNewline = init.needsNewline;
    this.#size = init.size - init.tornBytes;
  }

  /**
   * Opens a session file; creates it only when `create` says so. A writer takes `<path>.lock`
   * first and fails with `SessionLockedError` while another live process holds it. Opening never
   * changes an existing file. Options are checked before anything is touched: a bad one fails
   * with a `SessionOptionsError` naming it, and nothing is written.
   */
  static async open(path: string, options: JsonlStoreOptions = {}): Promise<JsonlStore> {
    if (typeof path !== 'string' || path === '') {
      throw new SessionOptionsError('JsonlStore.open', 'path', `expected the path of a session file, got ${JSON.stringify(path) ?? String(path)}`);
    }
    const checked = checkOptions(`JsonlStore.open(${path})`, JsonlStoreOptions, options);
    const readOnly = checked.readOnly ?? false;
    const durability = checked.fsync ?? 'always';
    const create = checked.create === true ? {} : checked.create || undefined;
    if (readOnly && create) throw new SessionOptionsError(`JsonlStore.open(${path})`, 'create', 'a read-only open never creates a file');
    const lock = readOnly ? undefined : await acquireLock(path).catch((error: unknown) => {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw lockRefused(path, error) ?? error;
      // ENOTDIR: a folder on the path is a file, so there is no session file there either.
      const why = code === 'ENOENT' ? `the folder ${dirname(path)} does not exist` : notAFolder(path);
      if (!create) throw code === 'ENOENT' ? notFound(path) : new SessionFileError({ file: path, line: 0 }, `no session file there (${why})`, 'not_found');
      throw new SessionFileError({ file: path, line: 0 }, `cannot create the lock file: ${why}`, 'not_found');
    });
    let handle: FileHandle | undefined;
    try {
      handle = await openSessionFile(path, readOnly, create, durability);
      let bytes: Buffer;
      try {
        bytes = await readRange(handle, 0, (await handle.stat()).size);
      } catch (error) {
        throw new SessionFileError({ file: path, line: 0 }, `cannot read the session file: ${(error as Error).message}`, 'unreadable');
      }
      if (readOnly) {
        await handle.close();
        handle = undefined;
      }
      const parsed = parseSessionFile(bytes, { file: path, strict: checked.strict ?? false });
      if (!readOnly && parsed.version !== SESSION_FORMAT_VERSION) {
        throw new SessionFileError(
          { file: path, line: 1, field: 'version' },
          `format version ${parsed.version} can only be opened read-only; write a current copy with upgradeSessionFile()`,
        );
      }
      return new JsonlStore({
        path,
        header: parsed.header,
        version: parsed.version,
        readOnly,
        entries: parsed.entries,
        byId: parsed.byId,
        warnings: parsed.warnings,
        durability,
        batchIntervalMs: checked.batchIntervalMs ?? 200,
        handle,
        lock,
        tornBytes: parsed.tornBytes,
        needsNewline: !parsed.endsWithNewline,
        size: bytes.length,
      });
    } catch (error) {
      await handle?.close();
      await lock?.release();
      throw error;
    }
  }

  /** The id index built while reading the file; the first caller (the session log) owns it from then on. */
  takeIndex(): Map<string, Entry> | undefined {
    const byId = this.#byId;
    this.#byId = undefined;
    return byId;
  }

  /** Appends one line per entry, in one write; appends run strictly one after another. */
  append(entries: readonly Entry[]): Promise<void> {
    if (this.readOnly) return Promise.reject(new AppendError('read_only', entries[0]?.id ?? '', `${this.path} was opened read-only`));
    if (this.#closed) return Promise.reject(new AppendError('closed', entries[0]?.id ?? '', `${this.path} is closed`));
    const job = this.#queue.then(() => this.#write(entries));
    this.#queue = job.catch(() => undefined);
    return job;
  }

  async #write(entries: readonly Entry[]): Promise<void> {
    if (entries.length === 0) return;
    if (this.#syncFailure) throw this.#tell(refusedAfterSyncFailure(this.path, entries, this.#syncFailure));
    const handle = this.#handle!;
    let text = this.#needsNewline ? '\n' : '';
    for (const entry of entries) text += `${serializeEntry(entry)}\n`;
    const bytes = Buffer.from(text, 'utf8');
    try {
      // A torn line was never a whole entry; cut it off so the next line starts clean.
      if (this.#tailToCut) await handle.truncate(this.#size);
      this.#tailToCut = false;
      // Positional writes at the end we track: the file is ours alone while we hold the lock.
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await handle.write(bytes, written, bytes.length - written, this.#size + written);
        written += bytesWritten;
      }
      if (this.durability === 'always') await handle.datasync();
    } catch (error) {
      // A full disk or a size limit stops a write part way: what it wrote of the batch must not
      // stay, or the next append would land on it and leave its remains (whole lines of a batch
      // that was refused) in the file.
      this.#tailToCut = true;
      throw appendFailed(this.path, entries, error, await this.#cutTail());
    }
    this.#size += bytes.length;
    this.#needsNewline = false;
    switch (this.durability) {
      case 'batch':
        this.#unsynced = withEntries(this.#unsynced, entries);
        this.#syncTimer ??= setTimeout(() => {
          this.#syncTimer = undefined;
          void this.#sync();
        }, this.#batchIntervalMs).unref();
        break;
      case 'never':
        this.#unsynced = withEntries(this.#unsynced, entries);
        break;
      case 'always':
        break;
      default: {
        const unknownDurability: never = this.durability;
        throw new TypeError(`unknown durability ${String(unknownDurability)}`);
      }
    }
  }

  /** Cuts the file back to its last whole entry; resolves with why it could not, or undefined. */
  async #cutTail(): Promise<unknown> {
    try {
      await this.#handle!.truncate(this.#size);
      this.#tailToCut = false;
      return undefined;
    } catch (error) {
      return error;
    }
  }

  /**
   * Forces the entries written since the last sync to disk; a failure is kept as the store's
   * `#syncFailure`. Never rejects: the timer's sync has no caller to tell, the next append does.
   */
  async #sync(): Promise<void> {
    const inDoubt = this.#unsynced;
    if (inDoubt.count === 0 || !this.#handle) return;
    this.#unsynced = NO_ENTRIES;
    if (this.#syncFailure) {
      // Their write was under way when a sync failed: no sync is trusted any more, so they are in doubt too.
      this.#syncFailure = { ...this.#syncFailure, inDoubt: joinNames(this.#syncFailure.inDoubt, inDoubt) };
      return;
    }
    try {
      await this.#handle.datasync();
    } catch (cause) {
      // Appends that resolved while it ran are in doubt too (what a failed sync covered is not known).
      this.#syncFailure = { inDoubt: joinNames(inDoubt, this.#unsynced), cause };
      this.#unsynced = NO_ENTRIES;
    }
  }

  /** `error`, counted as told: a failure a caller has heard is not said again by `close`. */
  #tell(error: AppendError): AppendError {
    this.#syncFailureTold = true;
    return error;
  }

  /**
   * Waits for pending appends and forces them to disk, whatever the durability option. Rejects
   * with an `AppendError` `write_failed` once a sync has failed (this one or an earlier one).
   */
  async flush(): Promise<void> {
    await this.#queue;
    await this.#sync();
    if (this.#syncFailure) throw this.#tell(syncFailed(this.path, this.#syncFailure));
  }

  /**
   * Syncs what is not on disk yet (except under `never`), closes the file and releases the lock,
   * whatever the sync did. Rejects with a failed sync's `AppendError` that no append or flush told.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#queue;
    if (this.#syncTimer) clearTimeout(this.#syncTimer);
    this.#syncTimer = undefined;
    if (this.durability !== 'never') await this.#sync();
    try {
      await this.#handle?.close();
    } finally {
      this.#handle = undefined;
      await this.#lock?.release();
    }
    if (this.#syncFailure && !this.#syncFailureTold) throw this.#tell(syncFailed(this.path, this.#syncFailure));
  }
}
