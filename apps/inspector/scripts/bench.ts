/**
 * The inspector's benchmark: a journal of about 3,000 inputs recorded by a real agent, opened in
 * chromium (served on 127.0.0.1, and as the self-contained export from file://), then stepped
 * to random positions. Reports the time to the first picture and the time per step (from the
 * slider's input to the next frame), median, 95th percentile and worst. Goals: load under 2 s,
 * a step under 50 ms.
 *
 *   pnpm --filter @tiller/inspector bench [--rounds 1000] [--screenshot]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { buildPage, serveInspector, writeInspectorHtml } from '../src/index.js';
import { recordLongSession } from './make-journals.js';

const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 1_000;

async function measure(page: Page, url: string, label: string): Promise<void> {
  const loads: number[] = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    loads.push(Number(await page.evaluate(() => document.body.dataset.loadMs)));
  }
  // Given as text: tsx would wrap a function's inner functions in a helper the page lacks.
  const steps = (await page.evaluate(`(async () => {
    const slider = document.getElementById('slider');
    const max = Number(slider.max);
    const times = [];
    const scripts = [];
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      // Half of them one step on (as the keyboard does), half a jump anywhere (the slider).
      const target = i % 2 === 0 ? Math.min(max, Number(slider.value) + 1) : Math.floor((seed / 2147483648) * max);
      const t0 = performance.now();
      slider.value = String(target);
      slider.dispatchEvent(new Event('input'));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      scripts.push(Number(document.body.dataset.stepMs));
      times.push(performance.now() - t0);
    }
    return { max, times, scripts };
  })()`)) as { max: number; times: number[]; scripts: number[] };
  const quantiles = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
    return `median ${at(0.5)} ms, p95 ${at(0.95)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`;
  };
  console.log(`${label.padEnd(28)} inputs ${steps.max}  load ${Math.min(...loads)} ms (of ${loads.join(', ')})`);
  console.log(`${''.padEnd(28)} step to the next frame: ${quantiles(steps.times)}`);
  console.log(`${''.padEnd(28)} of which the page's script: ${quantiles(steps.scripts)}`);
}

const dir = await mkdtemp(join(tmpdir(), 'tiller-inspector-bench-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--disable-gpu', '--no-first-run'] });
try {
  await buildPage();
  const started = Date.now();
  const files = await recordLongSession(dir, { rounds });
  console.log(`recorded ${rounds} rounds with a real agent in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  const server = await serveInspector({ file: files.sessionFile, port: 0 });
  try {
    await measure(page, server.url, 'served (journal + session)');
    if (process.argv.includes('--screenshot')) {
      await page.keyboard.press('End');
      await page.screenshot({ path: fileURLToPath(new URL('../.screenshots/inspector-long.png', import.meta.url)) });
    }
  } finally {
    await server.close();
  }
  const out = await writeInspectorHtml(files.sessionFile, join(dir, 'long.html'));
  await measure(page, pathToFileURL(out).href, 'export from file://');
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
