/**
 * Tiller as a user gets it: every package packed with `pnpm pack`, the tarballs installed into a
 * project outside the workspace (offline, from the store `pnpm install` filled, at the versions the
 * workspace's lockfile holds), then a host app compiled by the user's own strict `tsc`, run with
 * plain `node`, and the installed `tiller` bin.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedVersionOverrides } from './locked-versions.js';
import { readmeApp } from './readme-app.js';

const execFileAsync = promisify(execFile);
/**
 * Children run as a user's would: without the workspace's `--conditions=@tiller/source`, and
 * without the `NODE_PATH` pnpm's bin shims set to the workspace's own node_modules (through it,
 * `createRequire` in an installed package found what the user never installed).
 */
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_OPTIONS' && key !== 'NODE_PATH'));
const run = (file: string, args: string[], options: { cwd: string; maxBuffer?: number }) => execFileAsync(file, args, { ...options, env: userEnv });
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');

/** Every installable package, by folder. A new package is added here (see docs/packages.md). */
const PACKAGES = ['packages/core', 'packages/session', 'packages/compaction', 'packages/shell', 'packages/testing', 'packages/restate', 'apps/cli', 'apps/inspector'];
/**
 * The peers a host installs beside Tiller, at the versions the workspace pins. Restate's server
 * (an optional peer of @tiller/restate, for startLocalServer) is left out on purpose.
 */
const PEERS = ['zod', 'xstate', 'ai', '@restatedev/restate-sdk'];
const DEV = ['typescript', '@types/node'];

/** Building, packing, installing and two strict checks with skipLibCheck off take a while on two busy cores. */
const SETUP_TIMEOUT = 300_000;
const CHECK_TIMEOUT = 240_000;

let project: string;

async function pinnedVersion(name: string): Promise<string> {
  const manifests = ['package.json', 'packages/core/package.json', 'packages/shell/package.json', 'packages/restate/package.json'];
  for (const manifest of manifests) {
    const pkg = JSON.parse(await readFile(join(root, manifest), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
    const version = pkg.devDependencies?.[name] ?? pkg.dependencies?.[name];
    if (version) return version;
  }
  throw new Error(`no pinned version of ${name} in ${manifests.join(', ')}`);
}

const strictOptions = {
  target: 'ES2022',
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: false,
  types: ['node'],
};

beforeAll(async () => {
  // The tarballs carry dist/: bring it up to date (a no-op after `pnpm test`'s own tsc -b).
  await run(process.execPath, [tsc, '-b', ...PACKAGES.map((p) => join(root, p, 'tsconfig.build.json'))], { cwd: root });
  project = await mkdtemp(join(tmpdir(), 'tiller-consumer-'));
  const tarballs = join(project, 'tarballs');
  await mkdir(tarballs);
  const packed = new Map<string, string>();
  for (const folder of PACKAGES) {
    const { name } = JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8')) as { name: string };
    const { stdout } = await run('pnpm', ['pack', '--pack-destination', tarballs], { cwd: join(root, folder) });
    packed.set(name, `file:${stdout.trim().split('\n').at(-1)!}`);
  }
  const app = join(project, 'app');
  await mkdir(join(app, 'src'), { recursive: true });
  const versions = async (names: string[]) => Object.fromEntries(await Promise.all(names.map(async (n) => [n, await pinnedVersion(n)])));
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify({ name: 'tiller-consumer', private: true, type: 'module', dependencies: { ...Object.fromEntries(packed), ...(await versions(PEERS)) }, devDependencies: await versions(DEV) }, null, 2),
  );
  // The tarballs depend on each other by version (0.1.0), which no registry has: point them at the files.
  // Every other package at the version the workspace's lockfile holds: the store has those.
  const locked = lockedVersionOverrides(await readFile(join(root, 'pnpm-lock.yaml'), 'utf8'));
  const overrides = [...Object.entries(locked), ...packed].map(([name, spec]) => `  '${name}': '${spec}'`).join('\n');
  await writeFile(join(app, 'pnpm-workspace.yaml'), `overrides:\n${overrides}\n`);
  await writeFile(join(app, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...strictOptions, module: 'NodeNext', moduleResolution: 'NodeNext', rootDir: 'src', outDir: 'out' }, include: ['src'] }, null, 2));
  await writeFile(join(app, 'tsconfig.bundler.json'), JSON.stringify({ compilerOptions: { ...strictOptions, module: 'ESNext', moduleResolution: 'Bundler', noEmit: true }, include: ['src'] }, null, 2));
  await copyFile(join(root, 'packaging/app/host-app.ts'), join(app, 'src/host-app.ts'));
  await copyFile(join(root, 'packaging/app/durable-app.ts'), join(app, 'src/durable-app.ts'));
  await writeFile(join(app, 'src/readme-app.ts'), readmeApp(await readFile(join(root, 'README.md'), 'utf8')));
  await run('pnpm', ['install', '--offline'], { cwd: app });
}, SETUP_TIMEOUT);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

interface Diagnostic {
  file: string;
  text: string;
}

/** Runs the user's tsc; returns its diagnostics (tsc exits non-zero when there are any). */
async function typeCheck(config: string): Promise<Diagnostic[]> {
  const app = join(project, 'app');
  const output = await run(process.execPath, [join(app, 'node_modules/typescript/bin/tsc'), '-p', config, '--pretty', 'false'], { cwd: app, maxBuffer: 64 << 20 }).then(
    ({ stdout }) => stdout,
    (error: { stdout?: string }) => error.stdout ?? String(error),
  );
  return output
    .split('\n')
    .filter((line) => /^\S.*\(\d+,\d+\): error TS/.test(line))
    .map((line) => ({ file: line.slice(0, line.indexOf('(')), text: line }));
}

/**
 * Diagnostics the user could blame on Tiller: in their own code or in Tiller's declarations.
 * With `exactOptionalPropertyTypes` and `skipLibCheck: false`, tsc also reports errors inside
 * the declarations of `ai`, `@ai-sdk/provider`, `xstate` and Restate's SDK core themselves; those
 * are not Tiller's.
 */
const tillers = (diagnostics: Diagnostic[]) => diagnostics.filter((d) => d.file.startsWith('src/') || d.file.includes('@tiller'));

describe('the packed packages, installed outside the workspace', () => {
  it('type-check under a strict user tsc (NodeNext), and the host app runs with plain node', async () => {
    const diagnostics = await typeCheck('tsconfig.json');
    expect(tillers(diagnostics)).toEqual([]);
    const others = new Set(diagnostics.map((d) => d.file.replace(/^.*node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?/, '')));
    for (const file of others) expect(file, diagnostics.filter((d) => d.file.includes(file)).map((d) => d.text).join('\n')).toMatch(/^(ai|@ai-sdk\/provider|xstate|@restatedev\/restate-sdk-core)\//);

    const app = join(project, 'app');
    const { stdout } = await run(process.execPath, ['out/host-app.js'], { cwd: app });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({ status: 'completed', toolRuns: 6, compactionEntries: 1 });
    expect(result.compactions).toBe(1);
    // Fewer messages in the context than entries in the file: the compaction dropped some, the file kept all.
    expect(result.contextMessages as number).toBeLessThan((result.fileLines as number) - 1);
    expect(result.tiktoken).toMatch(/needs js-tiktoken, an optional peer dependency of @tiller\/compaction.*npm install js-tiktoken/);
  }, CHECK_TIMEOUT);

  it('type-check under a strict user tsc with moduleResolution Bundler', async () => {
    expect(tillers(await typeCheck('tsconfig.bundler.json'))).toEqual([]);
  }, CHECK_TIMEOUT);

  it("run the README's host app as written", async () => {
    const app = join(project, 'app');
    // Compiled by the first check; it writes its session beside it.
    const { stdout } = await run(process.execPath, ['out/readme-app.js'], { cwd: app });
    expect(stdout).toContain('completed It is now.');
    const lines = (await readFile(join(app, 'session.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.length).toBeGreaterThan(3);
  }, CHECK_TIMEOUT);

  it("give a durable agent's services on Restate that load with plain node: bound into the user's endpoint, served, checked", async () => {
    const app = join(project, 'app');
    // Compiled by the first check, with the user's strict tsc.
    const { stdout } = await run(process.execPath, ['out/durable-app.js'], { cwd: app });
    const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(result).toMatchObject({
      objects: ['Notes', 'NotesInbox'],
      services: ['Notes', 'NotesInbox'],
      dropped: 'later',
      answer: [{ type: 'text', text: 'step answered' }],
      plan: 'run',
      tool: [{ type: 'text', text: 'noted: bread' }],
    });
    expect(result.badOption).toMatch(/^durableServices: invalid options:[\s\S]*at limits\.maxRetries/);
    // The server is an optional peer: without it, startLocalServer says what to install.
    expect(result.noServer).toMatch(/@restatedev\/restate-server is not installed/);
  }, CHECK_TIMEOUT);

  it('give an inspector that loads with plain node and ships its built page', async () => {
    const app = join(project, 'app');
    const script = "const m = await import('@tiller/inspector'); console.log(Object.keys(m).sort().join(','));";
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app });
    expect(stdout.trim()).toBe('InspectorError,InspectorOptionsError,InspectorSourceError,buildPage,resolveInspectorSource,serveInspector,writeInspectorHtml');
    const page = await readFile(join(app, 'node_modules/@tiller/inspector/dist/page/index.html'), 'utf8');
    expect(page).toContain('<script type="module">');
  }, CHECK_TIMEOUT);

  it('give @tiller/session/text, the reader of a session file\'s text, that loads with plain node', async () => {
    const app = join(project, 'app');
    const header = JSON.stringify({ type: 'tiller.session', version: 2, id: 'chat', createdAt: '2026-01-01T00:00:00.000Z' });
    const script = `import { readSessionText } from '@tiller/session/text';
const read = readSessionText(${JSON.stringify(`${header}\n{"kind":"message","id":"a",`)}, 'chat.jsonl');
console.log(JSON.stringify({ id: read.header.id, entries: read.entries.length, warnings: read.warnings.map((w) => w.message) }));`;
    await writeFile(join(app, 'session-text.mjs'), script);
    const { stdout } = await run(process.execPath, ['session-text.mjs'], { cwd: app });
    expect(JSON.parse(stdout)).toEqual({ id: 'chat', entries: 0, warnings: ['chat.jsonl:2: the last line is incomplete (a write was cut off); skipped'] });
  }, CHECK_TIMEOUT);

  it('give a working tiller bin', async () => {
    const app = join(project, 'app');
    for (const command of [
      [join(app, 'node_modules/.bin/tiller'), '--help'],
      ['npx', '--no', '--', 'tiller', '--help'],
    ]) {
      const { stdout } = await run(command[0]!, command.slice(1), { cwd: app });
      expect(stdout).toMatch(/^usage: tiller/m);
    }
  }, CHECK_TIMEOUT);
});
