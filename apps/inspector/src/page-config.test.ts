import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CONFIG_GLOBAL, configScript, withConfig } from './page-config.js';

describe('the config a page is handed', () => {
  it('survives data that holds script end tags, comments and line separators, and goes before the page script', () => {
    const journal = 'text with </script><script>alert(1)</script> and <!-- and \u2028 inside';
    const script = configScript({ embedded: { journal } });
    expect(script.match(/<\/script/gi)).toHaveLength(1);
    const window: Record<string, unknown> = {};
    runInNewContext(script.replace(/^<script>|<\/script>$/g, ''), { window });
    expect(window[CONFIG_GLOBAL]).toEqual({ embedded: { journal } });
    const html = withConfig('<html><head></head><body><script type="module">page()</script></body></html>', { name: 'x' });
    expect(html.indexOf(CONFIG_GLOBAL)).toBeLessThan(html.indexOf('page()'));
  });
});
