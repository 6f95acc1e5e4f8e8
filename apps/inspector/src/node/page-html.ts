import { access, mkdir, readFile, rename, rm } from 'node:fs/promises';
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

/** The built page's HTML; built first when it is not there (a fresh checkout). */
export async function pageHtml(): Promise<string> {
  try {
    await access(PAGE_FILE);
  } catch {
    await buildPage();
  }
  return readFile(PAGE_FILE, 'utf8');
}
