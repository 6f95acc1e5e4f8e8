import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const PAGE_FILE = fileURLToPath(new URL('../../dist/page/index.html', import.meta.url));

/**
 * Builds the page (one HTML file with its script and styles inside) with Vite. It is built in a
 * folder of its own and moved into place in one rename, so a reader never sees half a page, even
 * while another build runs.
 */
export async function buildPage(): Promise<string> {
  const { build } = await import('vite');
  const scratch = join(dirname(dirname(PAGE_FILE)), `.build-${process.pid}-${Math.random().toString(36).slice(2)}`);
  try {
    await build({ configFile: join(APP_DIR, 'vite.config.ts'), logLevel: 'warn', build: { outDir: scratch, emptyOutDir: true } });
    await mkdir(dirname(PAGE_FILE), { recursive: true });
    await rename(join(scratch, 'index.html'), PAGE_FILE);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return PAGE_FILE;
}

/**
 * What the page is built from, where the sources are at hand (a checkout of the repository):
 * the page, the modules it shares with the Node side, and the core it replays with. A page older
 * than any of them would replay with yesterday's core and report divergences that are not there.
 */
const SOURCES = ['page', 'src', '../../packages/core/src'].map((dir) => join(APP_DIR, dir));

async function newestSource(): Promise<number> {
  let newest = 0;
  // An installed package ships the built page and not its sources: nothing to compare.
  if (!(await stat(SOURCES[0]!).then(() => true, () => false))) return 0;
  for (const dir of SOURCES) {
    let names: string[];
    try {
      names = await readdir(dir, { recursive: true });
    } catch {
      continue; // an installed package ships no sources to compare
    }
    for (const name of names) {
      if (name.endsWith('.test.ts')) continue;
      newest = Math.max(newest, (await stat(join(dir, name))).mtimeMs);
    }
  }
  return newest;
}

/** The built page's HTML; built first when it is missing or older than its sources. */
export async function pageHtml(): Promise<string> {
  const built = await stat(PAGE_FILE).then(
    (s) => s.mtimeMs,
    () => null,
  );
  if (built === null || built < (await newestSource())) await buildPage();
  return readFile(PAGE_FILE, 'utf8');
}
