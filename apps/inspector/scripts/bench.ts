/**
 * The inspector's benchmark: a journal of about 3,000 inputs recorded by a real agent, opened in
 * chromium (served on 127.0.0.1, and as the self-contained export from file://), then stepped
 * to 200 positions. Load is the time from the start of navigation to the first picture of the
 * replay; a step the time from the slider's input to the next frame. Goals: load under 2 s, a
 * step under 50 ms.
 *
 * Beside them, in the same browser and the same run, two trivial baselines make the figures
 * readable on a machine of any speed: the same page opening a journal of a few inputs (what the
 * page costs whatever the journal), and a page whose slider does nothing (the frame wait every
 * step includes). Each figure is also given as a ratio to its baseline.
 *
 *   pnpm --filter @tiller/inspector bench [--rounds 1000] [--steps 200] [--screenshot]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { buildPage, serveInspector, writeInspectorHtml } from '../src/index.js';
import { recordLongSession, recordNotebookSession } from './make-journals.js';

const arg = (name: string, fallback: number) => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? Number(process.argv[at + 1]) : fallback;
};
const rounds = arg('rounds', 1_000);
const stepCount = arg('steps', 200);
const LOADS = 3;

interface Stepped {
  inputs: number;
  /** From the slider's input to the next frame, ms. */
  times: number[];
  /** The page's own script of each step (what it reports in `data-step-ms`), ms; empty for the baseline. */
  scripts: number[];
}

const median = (values: readonly number[]) => quantile(values, 0.5);
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}
const ms = (value: number) => `${value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en')} ms`;
const ratio = (value: number, base: number) => `${(value / base).toFixed(1)}x`;

/** Opens `url` LOADS times; the load times the page reports. */
async function loads(page: Page, url: string): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < LOADS; i++) {
    await page.goto(url);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 60_000 });
    out.push(Number(await page.evaluate(() => document.body.dataset.loadMs)));
  }
  return out;
}

/**
 * Steps the page's `#slider` to `stepCount` positions, half one on (as the keyboard does), half a
 * jump anywhere (seeded), timing each to the next frame.
 */
async function steps(page: Page): Promise<Stepped> {
  // Given as text: tsx would wrap a function's inner functions in a helper the page lacks.
  return (await page.evaluate(`(async () => {
    const slider = document.getElementById('slider');
    const max = Number(slider.max);
    const times = [];
    const scripts = [];
    let seed = 7;
    for (let i = 0; i < ${stepCount}; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const target = i % 2 === 0 ? Math.min(max, Number(slider.value) + 1) : Math.floor((seed / 2147483648) * max);
      const t0 = performance.now();
      slider.value = String(target);
      slider.dispatchEvent(new Event('input'));
      await new Promise((resolve) => requestAnimationFrame(resolve));
      times.push(performance.now() - t0);
      if (document.body.dataset.stepMs !== undefined) scripts.push(Number(document.body.dataset.stepMs));
    }
    return { inputs: max, times, scripts };
  })()`)) as Stepped;
}

/** A page with a slider of as many positions and nothing listening to it: the frame wait alone. */
const floorPage = (inputs: number) =>
  `data:text/html,${encodeURIComponent(`<!doctype html><title>floor</title><input id="slider" type="range" min="0" max="${inputs}" value="0">`)}`;

const dir = await mkdtemp(join(tmpdir(), 'tiller-inspector-bench-'));
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--disable-gpu', '--no-first-run'] });
try {
  await buildPage();
  const started = Date.now();
  const long = await recordLongSession(join(dir, 'long'), { rounds });
  const small = await recordNotebookSession(join(dir, 'small'));
  console.log(`recorded ${rounds} rounds with a real agent in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(1)).join(' ')} (on ${cpus().length} cores)`);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });

  const smallServer = await serveInspector({ file: small.sessionFile, port: 0 });
  const longServer = await serveInspector({ file: long.sessionFile, port: 0 });
  try {
    // Baselines first, then the measured pages, all in this browser.
    const smallLoads = await loads(page, smallServer.url);
    const smallInputs = Number(await page.evaluate(() => (document.getElementById('slider') as HTMLInputElement).max));
    const longLoads = await loads(page, longServer.url);
    const served = await steps(page);
    if (process.argv.includes('--screenshot')) {
      await page.keyboard.press('End');
      await page.screenshot({ path: fileURLToPath(new URL('../.screenshots/inspector-long.png', import.meta.url)) });
    }
    const exported = await writeInspectorHtml(long.sessionFile, join(dir, 'long.html'));
    const exportLoads = await loads(page, pathToFileURL(exported).href);
    const exportSteps = await steps(page);
    await page.goto(floorPage(served.inputs));
    const floor = await steps(page);

    const smallLoad = median(smallLoads);
    const floorStep = median(floor.times);
    const rows: string[][] = [
      ['opened', 'inputs', 'load (median of 3)', 'load / baseline', 'step to the next frame (median / p95)', 'step / baseline', "the page's script of a step (median / p95)"],
      ['baseline: the page on a small journal, served', String(smallInputs), ms(smallLoad), '1.0x', '', '', ''],
      ['baseline: a slider nothing listens to', String(floor.inputs), '', '', `${ms(floorStep)} / ${ms(quantile(floor.times, 0.95))}`, '1.0x', ''],
    ];
    for (const [label, loadTimes, stepped] of [
      ['served (journal + session)', longLoads, served],
      ['export from file://', exportLoads, exportSteps],
    ] as const) {
      rows.push([
        label,
        String(stepped.inputs),
        ms(median(loadTimes)),
        ratio(median(loadTimes), smallLoad),
        `${ms(median(stepped.times))} / ${ms(quantile(stepped.times, 0.95))}`,
        ratio(median(stepped.times), floorStep),
        `${ms(median(stepped.scripts))} / ${ms(quantile(stepped.scripts, 0.95))}`,
      ]);
    }
    console.log('');
    const [head, ...body] = rows;
    for (const row of [head!, head!.map(() => '---'), ...body]) console.log(`| ${row.join(' | ')} |`);
    console.log('');
    console.log(`goals: load under 2 s, a step under 50 ms; load of every run: served ${longLoads.join(', ')} ms, export ${exportLoads.join(', ')} ms`);
    console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  } finally {
    await smallServer.close();
    await longServer.close();
  }
} finally {
  await browser.close();
  await rm(dir, { recursive: true, force: true });
}
