import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

/**
 * The page is built into one HTML file with its script and styles inside, so the same file is
 * what `serveInspector` serves and what `writeInspectorHtml` fills with data and writes out to
 * open from file://.
 */
function singleFile(): Plugin {
  return {
    name: 'tiller-inspector-single-file',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (!html || html.type !== 'asset') return;
      let text = String(html.source);
      for (const [name, item] of Object.entries(bundle)) {
        if (item.type === 'chunk' && item.isEntry) {
          // `</script` inside the code would end the tag early.
          const code = item.code.replace(/<\/script/gi, '<\\/script');
          text = text.replace(new RegExp(`<script[^>]*src="[^"]*${escape(name)}"[^>]*></script>`), () => `<script type="module">${code}</script>`);
          delete bundle[name];
        } else if (item.type === 'asset' && name.endsWith('.css')) {
          text = text.replace(new RegExp(`<link[^>]*href="[^"]*${escape(name)}"[^>]*>`), () => `<style>${String(item.source)}</style>`);
          delete bundle[name];
        }
      }
      html.source = text;
    },
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  logLevel: 'warn',
  plugins: [singleFile()],
  // The page bundles @tiller/core from its sources, as everything in the workspace runs it (docs/packages.md).
  resolve: { conditions: ['@tiller/source', ...defaultClientConditions] },
  build: {
    // Its own folder: a package build puts the compiled Node side in dist/ beside it.
    outDir: fileURLToPath(new URL('./dist/page', import.meta.url)),
    emptyOutDir: true,
    assetsInlineLimit: Number.MAX_SAFE_INTEGER,
    cssCodeSplit: false,
    modulePreload: false,
    chunkSizeWarningLimit: 10_000,
  },
});
