import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Bundles a script of this folder into one plain JavaScript file in `dir` (with the esbuild that
 * tsx runs on) and returns its path. Started as a bare `node` process, it is up in a fraction of
 * the time tsx takes to load the sources, and the process a test kills is still the one that
 * does the work.
 */
export async function bundleScript(name: string, dir: string): Promise<string> {
  const tsx = createRequire(import.meta.url).resolve('tsx/package.json');
  const esbuild = createRequire(tsx)('esbuild') as { build(options: Record<string, unknown>): Promise<unknown> };
  const outfile = join(dir, name.replace(/\.ts$/, '.mjs'));
  const entry = fileURLToPath(new URL(`./${name}`, import.meta.url));
  await esbuild.build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile, logLevel: 'error' });
  return outfile;
}
