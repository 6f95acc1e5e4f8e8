import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { withConfig } from '../page-config.js';
import { InspectorOptionsError } from '../errors/inspector-options-error.js';
import { whyNotWritable } from './output-place.js';
import { pageHtml } from './page-html.js';
import { resolveInspectorSource } from './resolve-source.js';

/**
 * Writes one self-contained HTML file: the inspector page with the journal (and its session
 * file, when there is one) inside it. It opens from file:// with nothing beside it and makes no
 * request. Returns the path written. An `out` that cannot be written (its folder does not exist,
 * it is a folder) is an `InspectorOptionsError` naming the path, before anything is read or built.
 */
export async function writeInspectorHtml(file: string, out: string): Promise<string> {
  if (typeof out !== 'string' || out === '') {
    throw new InspectorOptionsError('writeInspectorHtml', 'out', `expected the path of the HTML file to write, got ${JSON.stringify(out) ?? String(out)}`);
  }
  const path = resolve(out);
  const problem = await whyNotWritable(path);
  if (problem) throw new InspectorOptionsError('writeInspectorHtml', 'out', `cannot write ${path}: ${problem}`);
  const source = await resolveInspectorSource(file);
  const journal = await readFile(source.journal, 'utf8');
  const session = source.session ? await readFile(source.session, 'utf8') : undefined;
  const html = withConfig(await pageHtml(), { name: source.name, embedded: { journal, session } });
  await writeFile(path, html, 'utf8');
  return path;
}
