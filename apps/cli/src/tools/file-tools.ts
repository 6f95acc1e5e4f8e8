import { mkdir, readdir, readFile, readlink, realpath, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { defineTool, type Tool, type ToolPolicy } from '@tiller/shell';
import { z } from 'zod';

/** The built-in tools that change files; the CLI asks before running them unless told `--yes`. */
export const WRITE_TOOLS: ReadonlySet<string> = new Set(['write_file', 'edit_file']);

/** Folders a listing skips: they are large and never what a coding task is about. */
const SKIPPED = new Set(['.git', 'node_modules']);
const MAX_LISTED = 500;
const MAX_READ_LINES = 2_000;

/**
 * A path the model gave, resolved inside `root`. A path that leaves the workspace (`../x`, an
 * absolute path elsewhere, or a symbolic link in it that points out) is refused: the tool's error
 * result says so and the model can retry.
 */
async function inside(root: string, path: string): Promise<string> {
  const full = resolve(root, path);
  if (!isWithin(root, full)) throw new Error(`${path} is outside the workspace ${root}`);
  // The file system follows links when the file is opened, so what counts is where the path really leads.
  if (!isWithin(await realPathOf(root), await realPathOf(full))) throw new Error(`${path} leads outside the workspace ${root} (through a symbolic link)`);
  return full;
}

function isWithin(root: string, full: string): boolean {
  const rel = relative(root, full);
  return !(rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel));
}

/** Symbolic links a path may pass through before we call it a loop (Linux's own limit). */
const MAX_LINKS = 40;

/**
 * Where `full` leads once every symbolic link on it is followed. A path that does not exist yet
 * (a file to be written) leads where its nearest existing folder does; a dangling link leads to
 * its target, which writing would create.
 */
async function realPathOf(full: string, links = 0): Promise<string> {
  try {
    return await realpath(full);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const link = await readlink(full).catch(() => undefined);
  if (link !== undefined) {
    if (links >= MAX_LINKS) throw new Error(`${full}: too many levels of symbolic links`);
    return realPathOf(resolve(dirname(full), link), links + 1);
  }
  const parent = dirname(full);
  return parent === full ? full : join(await realPathOf(parent, links), basename(full));
}

const shown = (root: string, full: string) => relative(root, full) || '.';

/**
 * What is at `full`, if anything. Anything but a regular file or a folder is refused before it is
 * opened: opening a FIFO or a device can block a thread of Node's pool for good, and then not even
 * Ctrl-C ends the process.
 */
async function kindOf(full: string, path: string): Promise<'missing' | 'file' | 'folder'> {
  const found = await stat(full).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (found === undefined) return 'missing';
  if (found.isFile()) return 'file';
  if (found.isDirectory()) return 'folder';
  const what = found.isFIFO() ? 'a FIFO (named pipe)' : found.isSocket() ? 'a socket' : found.isCharacterDevice() ? 'a character device' : found.isBlockDevice() ? 'a block device' : 'something else';
  throw new Error(`${path} is ${what}, not a regular file; the file tools read and write regular files only`);
}

/** A file's text; a missing file or a folder is said in the words the model asked with. */
async function readText(full: string, path: string): Promise<string> {
  const kind = await kindOf(full, path);
  if (kind === 'missing') throw new Error(`${path} does not exist; list_files shows what there is`);
  if (kind === 'folder') throw new Error(`${path} is a folder; list_files lists it`);
  return readFile(full, 'utf8');
}

/**
 * The file tools of `tiller demo` and `tiller run`, over one workspace folder: list, read, write
 * and edit (an exact, unique text replacement). Reads are idempotent; writes run one at a time.
 */
export function fileTools(workspace: string): Tool[] {
  const root = resolve(workspace);
  const listFiles = defineTool({
    name: 'list_files',
    description: 'Lists the files under a folder of the workspace, recursively (folders end with /). Skips .git and node_modules.',
    input: z.object({ path: z.string().default('.').describe('folder, relative to the workspace') }),
    idempotent: true,
    async execute({ path }) {
      const start = await inside(root, path);
      const out: string[] = [];
      const walk = async (dir: string): Promise<void> => {
        const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
        for (const entry of entries) {
          if (out.length >= MAX_LISTED) return;
          if (SKIPPED.has(entry.name)) continue;
          const full = join(dir, entry.name);
          if (entry.isDirectory()) {
            out.push(`${shown(root, full)}/`);
            await walk(full);
          } else out.push(shown(root, full));
        }
      };
      await walk(start);
      if (out.length === 0) return `${shown(root, start)} is empty`;
      return out.length >= MAX_LISTED ? `${out.join('\n')}\n(first ${MAX_LISTED} entries shown)` : out.join('\n');
    },
  });

  const readFileTool = defineTool({
    name: 'read_file',
    description: 'Reads a text file of the workspace. offset (1-based line) and limit read part of a long file.',
    input: z.object({
      path: z.string().describe('file, relative to the workspace'),
      offset: z.number().int().positive().optional(),
      limit: z.number().int().positive().optional(),
    }),
    idempotent: true,
    async execute({ path, offset, limit }) {
      const full = await inside(root, path);
      const lines = (await readText(full, path)).split('\n');
      const from = (offset ?? 1) - 1;
      const count = Math.min(limit ?? MAX_READ_LINES, MAX_READ_LINES);
      const part = lines.slice(from, from + count);
      const rest = lines.length - (from + part.length);
      return rest > 0 ? `${part.join('\n')}\n(${rest} more lines; read on with offset ${from + part.length + 1})` : part.join('\n');
    },
  });

  const writeFileTool = defineTool({
    name: 'write_file',
    description: 'Writes a whole file of the workspace (creating folders as needed), replacing what was there.',
    input: z.object({ path: z.string(), content: z.string() }),
    sequential: true,
    async execute({ path, content }) {
      const full = await inside(root, path);
      const kind = await kindOf(full, path);
      if (kind === 'folder') throw new Error(`${path} is a folder; give the path of a file in it`);
      const existed = kind === 'file';
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, content, 'utf8');
      return `${existed ? 'Replaced' : 'Created'} ${shown(root, full)} (${content.split('\n').length} lines).`;
    },
  });

  const editFile = defineTool({
    name: 'edit_file',
    description: 'Replaces one exact piece of text in a file of the workspace. oldText must occur exactly once; include enough context to make it unique.',
    input: z.object({ path: z.string(), oldText: z.string().min(1), newText: z.string() }),
    sequential: true,
    async execute({ path, oldText, newText }) {
      const full = await inside(root, path);
      const text = await readText(full, path);
      const first = text.indexOf(oldText);
      if (first < 0) return { content: [{ type: 'text', text: `oldText was not found in ${path}; read the file and copy the text exactly.` }], isError: true };
      if (text.indexOf(oldText, first + 1) >= 0) {
        return { content: [{ type: 'text', text: `oldText occurs more than once in ${path}; include more of the surrounding text.` }], isError: true };
      }
      await writeFile(full, text.slice(0, first) + newText + text.slice(first + oldText.length), 'utf8');
      const line = text.slice(0, first).split('\n').length;
      return `Edited ${shown(root, full)} at line ${line}.`;
    },
  });

  return [listFiles, readFileTool, writeFileTool, editFile];
}

/** Reads run freely; a write asks the host, unless it said yes to all. */
export function fileToolPolicy(options: { askForWrites: boolean }): ToolPolicy {
  return (call) => (options.askForWrites && WRITE_TOOLS.has(call.name) ? { decision: 'ask' } : { decision: 'allow' });
}
