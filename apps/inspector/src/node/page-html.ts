import { access, readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const APP_DIR = fileURLToPath(new URL('../../', import.meta.url));
export const PAGE_FILE = fileURLToPath(new URL('../../dist/index.html', import.meta.url));

/** Builds the page (one HTML file with its script and styles inside) with Vite. */
export async function buildPage(): Promise<string> {
  const { build } = await import('vite');
  await build({ configFile: `${APP_DIR}vite.config.ts`, logLevel: 'warn' });
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
