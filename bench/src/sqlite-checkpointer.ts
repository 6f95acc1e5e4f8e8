import type { BaseCheckpointSaver } from '@langchain/langgraph';

/**
 * LangGraph's SQLite checkpointer is an optional dependency of the bench: it stands on
 * better-sqlite3, whose native addon is built from source at install (no prebuilt binary for every
 * Node and platform), and a machine without a compiler or Node's headers cannot build it. Install
 * then succeeds without it, and the bench leaves out the rows that need it, saying why.
 *
 * The module is named through a variable so that type-checking does not need it either: the bench
 * uses only what `SqliteSaver` below describes.
 */
const MODULE = '@langchain/langgraph-checkpoint-sqlite';

/** The part of better-sqlite3's database the bench reads: one query, and closing it. */
interface SqliteDatabase {
  prepare(sql: string): { get(): unknown };
  close(): void;
}

/** `SqliteSaver` of `@langchain/langgraph-checkpoint-sqlite`, as far as the bench uses it. */
export type SqliteSaver = BaseCheckpointSaver & { readonly db: SqliteDatabase };

interface SqliteModule {
  SqliteSaver: { fromConnString(file: string): SqliteSaver };
}

/** Whether the SQLite checkpointer can run here: a way to open one on a file, or why not. */
export type SqliteCheckpointing = { available: true; open(file: string): SqliteSaver } | { available: false; reason: string };

let loaded: Promise<SqliteCheckpointing> | undefined;

/**
 * Loads the SQLite checkpointer once and opens an in-memory database with it, since better-sqlite3
 * loads its addon only when a database is opened: a package that is installed but did not build
 * is found out here, not in the middle of a measurement.
 */
export function sqliteCheckpointing(): Promise<SqliteCheckpointing> {
  return (loaded ??= load(MODULE));
}

/** `sqliteCheckpointing` for a module named by the caller: how a missing or broken one is reported. */
export async function load(specifier: string): Promise<SqliteCheckpointing> {
  let module: SqliteModule;
  try {
    module = (await import(specifier)) as SqliteModule;
  } catch (error) {
    return { available: false, reason: `${specifier} is not installed (${firstLine(error)})` };
  }
  try {
    module.SqliteSaver.fromConnString(':memory:').db.close();
  } catch (error) {
    return { available: false, reason: `better-sqlite3, which ${specifier} needs, cannot load its native addon: it did not build at install, or was built for another Node (${firstLine(error)})` };
  }
  return { available: true, open: (file) => module.SqliteSaver.fromConnString(file) };
}

/** What the rows that need the checkpointer say in its place when it is missing. */
export function sqliteNote(reason: string): string {
  return `the LangGraph + SQLite checkpointer rows are left out: ${reason}; install the bench's optional dependencies with a C++ toolchain and Node's headers to measure them (docs/performance.md)`;
}

/** The first line of an error's message, without a closing sentence that introduces the lines after it ("Tried:"). */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.trim().replace(/(?<=\.)\s+[^.]*:$/, '');
}
