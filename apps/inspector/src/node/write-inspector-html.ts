import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { withConfig } from '../page-config.js';
import { pageHtml } from './page-html.js';
import { resolveInspectorSource } from './resolve-source.js';

/**
 * Writes one self-contained HTML file: the inspector page with the journal (and its session
 * file, when there is one) inside it. It opens from file:// with nothing beside it and makes no
 * request. Returns the path written.
 */
export async function writeInspectorHtml(file: string, out: string): Promise<string> {
  const source = await resolveInspectorSource(file);
  const journal = await readFile(source.journal, 'utf8');
  const session = source.session ? await readFile(source.session, 'utf8') : undefined;
  const html = withConfig(await pageHtml(), { name: source.name, embedded: { journal, session } });
  const path = resolve(out);
  await writeFile(path, html, 'utf8');
  return path;
}
