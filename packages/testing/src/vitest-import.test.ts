import { fileURLToPath } from 'node:url';
import { build, type Rollup } from 'vite';
import { expect, it } from 'vitest';

// `import '@tiller/testing/vitest'` is imported for its effect alone (it registers the matchers),
// so a bundler must not drop it as an import of a side-effect-free package.
it('keeps the matchers when a bundler takes a bare import of @tiller/testing/vitest', async () => {
  const entry = '\0tiller-matchers-entry';
  const result = await build({
    configFile: false,
    logLevel: 'silent',
    root: fileURLToPath(new URL('..', import.meta.url)),
    resolve: { conditions: ['@tiller/source'] },
    plugins: [{ name: 'entry', resolveId: (id) => (id === entry ? id : undefined), load: (id) => (id === entry ? "import '@tiller/testing/vitest';\n" : undefined) }],
    build: {
      write: false,
      minify: false,
      rollupOptions: { input: entry, external: (id) => !id.startsWith('.') && !id.startsWith('/') && !id.startsWith('\0') && !id.startsWith('@tiller/') },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
  const code = outputs.flatMap((o) => o.output).map((chunk) => ('code' in chunk ? chunk.code : '')).join('\n');
  expect(code).toContain('toHoldEveryInvariant');
}, 60_000);
