/**
 * Every ```ts block of the guides (docs/*.md), type-checked against the packages as a user imports
 * them: `import ... from '@tiller/shell'` resolves through that package's `exports` map, from a
 * project of its own outside the workspace that has the packages and their peers in node_modules,
 * under a user's strict compiler options. A guide whose example no longer compiles (an export
 * renamed, an option gone) fails here, with the guide, the line in it and the compiler's message.
 *
 * The conventions, for whoever writes a guide:
 *
 * - A block is compiled as written, as a module of its own (its own imports, top-level await
 *   allowed). Prefer a complete example: it is the one a reader can copy.
 *
 * - A deliberate fragment (it uses an `agent`, a `model` or a `session` made elsewhere) says what
 *   it uses in an HTML comment directly above the block, invisible when the guide is rendered:
 *
 *       <!-- snippet-context: import type { Agent } from '@tiller/shell'; declare const agent: Agent; -->
 *       ```ts
 *       agent.subscribe(...);
 *       ```
 *
 *   The comment's text is put before the block when compiling (it may span lines). When the block
 *   is the inside of something (the cases of a `switch`, the properties of an object), the text
 *   holds `/* snippet *\/` where the block goes, and the rest follows it.
 *
 * - A block that restates a package's interfaces (a contract in brief) names the package in a
 *   comment of its own, stacked with its context if it has one:
 *
 *       <!-- snippet-mirrors: @tiller/compaction -->
 *
 *   Each interface and type the block declares is then held to the package's export of the same
 *   name: the guide's has the same members, and whatever fits the guide's fits the package's (so
 *   an object written to the guide's `Summarizer` is a `Summarizer`). Type parameters are `unknown`.
 *
 * - A block that is not TypeScript at all (a signature written with defaults, pseudo-code) says so,
 *   with the reason, in the same place:
 *
 *       <!-- snippet: not compiled, because it lists the options with their defaults, not code -->
 *
 *   Nothing else skips a block; the test lists the skipped ones with their reasons, and a comment
 *   above a block that starts with `snippet` but is none of these fails it (a typo would skip it).
 *
 * The packages resolve with the workspace's `@tiller/source` condition, to the sources their
 * declarations are built from, so no build is needed and none is stale; the names, entry points
 * and `exports` maps are the user's. The consumer test checks the built, packed files.
 * All blocks are compiled in one program with TypeScript's API: a few seconds, not a process each.
 */
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Every Tiller package of the workspace, by folder: a new one is taken without a change here. */
const PACKAGES = ['packages', 'apps'].flatMap((group) =>
  readdirSync(join(root, group))
    .map((name) => `${group}/${name}`)
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .sort(),
);
/** What a user installs beside Tiller: its peers, vitest (for @tiller/testing/vitest) and Node's types. */
const INSTALLED = ['zod', 'xstate', 'ai', '@restatedev/restate-sdk', 'vitest', '@types/node'];

/** A user's strict options (as in consumer.test.ts), with every file a module of its own. */
const compilerOptions: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  moduleDetection: ts.ModuleDetectionKind.Force,
  customConditions: ['@tiller/source'],
  strict: true,
  exactOptionalPropertyTypes: true,
  noUncheckedIndexedAccess: true,
  skipLibCheck: true,
  types: ['node'],
  noEmit: true,
};

const SNIPPET_MARK = '/* snippet */';

interface Block {
  /** The guide, relative to the repository (`docs/shell.md`). */
  doc: string;
  /** The line of the opening fence, 1-based. */
  line: number;
  code: string;
  /** The text of a `<!-- snippet-context: ... -->` comment directly above, if any. */
  context?: string;
  /** The package of a `<!-- snippet-mirrors: ... -->` comment directly above, if any. */
  mirrors?: string;
  /** The reason of a `<!-- snippet: not compiled, because ... -->` comment directly above, if any. */
  skipped?: string;
  /** A `<!-- snippet... -->` comment above that is none of these (a typo): an error. */
  malformed?: string;
}

/** The ```ts (or ```typescript) blocks of a markdown text, with the comments directly above each. */
function extractBlocks(doc: string, markdown: string): Block[] {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,}|~{3,})\s*(\w*)/.exec(lines[i]!);
    if (!open) continue;
    const [, indent, fence, lang] = open as unknown as [string, string, string, string];
    let end = i + 1;
    while (end < lines.length && !new RegExp(`^ *${fence[0]}{${fence.length},}\\s*$`).test(lines[end]!)) end++;
    if (lang === 'ts' || lang === 'typescript') {
      const code = lines
        .slice(i + 1, end)
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l.trimStart()))
        .join('\n');
      blocks.push({ doc, line: i + 1, code, ...commentsAbove(lines.slice(0, i).join('\n')) });
    }
    i = end;
  }
  return blocks;
}

/** The `<!-- snippet... -->` comments that end right above a fence (only blank space between them). */
function commentsAbove(before: string): Pick<Block, 'context' | 'mirrors' | 'skipped' | 'malformed'> {
  const found: Pick<Block, 'context' | 'mirrors' | 'skipped' | 'malformed'> = {};
  for (;;) {
    const comment = /<!--((?:(?!-->)[\s\S])*)-->\s*$/.exec(before);
    if (!comment || !/^\s*snippet/.test(comment[1]!)) return found;
    before = before.slice(0, comment.index);
    const text = comment[1]!.trim();
    const context = /^snippet-context:([\s\S]*)$/.exec(text);
    const mirrors = /^snippet-mirrors:\s*(\S+)$/.exec(text);
    const skipped = /^snippet: not compiled, because (\S[\s\S]*)$/.exec(text);
    if (context && found.context === undefined) found.context = context[1]!.trim();
    else if (mirrors && found.mirrors === undefined) found.mirrors = mirrors[1]!;
    else if (skipped && found.skipped === undefined) found.skipped = skipped[1]!.replace(/\s+/g, ' ').trim();
    else found.malformed = `<!--${comment[1]}-->`;
  }
}

/** A stretch of the compiled file that came from somewhere other than the block's text. */
interface Region {
  start: number;
  end: number;
  /** Where in the guide a diagnostic there is reported, and how. */
  line: number;
  what: string;
}

interface Source {
  block: Block;
  file: string;
  text: string;
  /** Where the block's own text starts in `text`. */
  start: number;
  /** The generated checks of `snippet-mirrors`, one region each. */
  checks: Region[];
}

/** The file compiled for a block: its context, then the block (or the block inside its context), then its mirror checks. */
function sourceOf(block: Block, dir: string, index: number): Source {
  const file = join(dir, `${block.doc.replace(/[^\w]+/g, '_')}_${block.line}_${index}.ts`);
  const context = block.context ?? '';
  const at = context.indexOf(SNIPPET_MARK);
  const before = at >= 0 ? context.slice(0, at) : context;
  const after = at >= 0 ? context.slice(at + SNIPPET_MARK.length) : '';
  const head = before ? `${before}\n` : '';
  let text = `${head}${block.code}\n${after}\n`;
  const checks: Region[] = [];
  if (block.mirrors) {
    text += `import type * as __package from ${JSON.stringify(block.mirrors)};\ntype __Fits<Guide extends Package, Package> = [Guide, Package];\n`;
    const parsed = ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.Latest);
    for (const statement of parsed.statements) {
      if (!ts.isInterfaceDeclaration(statement) && !ts.isTypeAliasDeclaration(statement)) continue;
      const name = statement.name.text;
      const args = statement.typeParameters?.length ? `<${statement.typeParameters.map(() => 'unknown').join(', ')}>` : '';
      const guide = `${name}${args}`;
      const real = `__package.${name}${args}`;
      const check =
        `type __${name}Fits = __Fits<${guide}, ${real}>;\n` +
        `const __${name}Members: { inThePackageNotTheGuide: never; inTheGuideNotThePackage: never } = null! as ` +
        `{ inThePackageNotTheGuide: Exclude<keyof ${real}, keyof ${guide}>; inTheGuideNotThePackage: Exclude<keyof ${guide}, keyof ${real}> };\n`;
      const line = block.line + 1 + parsed.getLineAndCharacterOfPosition(statement.name.getStart(parsed)).line;
      checks.push({ start: text.length, end: text.length + check.length, line, what: `${name} is not ${block.mirrors}'s ${name}` });
      text += check;
    }
  }
  return { block, file, text, start: head.length, checks };
}

/** A diagnostic as the guide's reader finds it: `docs/shell.md:76:12 (the block at line 64): TS2322 ...`. */
function describeDiagnostic(source: Source, diagnostic: ts.Diagnostic): string {
  // The packages' files by their place in the repository, not this machine's.
  const message = `TS${diagnostic.code}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`.replaceAll(`${root}/`, '');
  const { block } = source;
  const at = `the block at line ${block.line}`;
  if (diagnostic.start === undefined || !diagnostic.file) return `${block.doc}:${block.line} (${at}): ${message}`;
  const check = source.checks.find((c) => diagnostic.start! >= c.start && diagnostic.start! < c.end);
  if (check) return `${block.doc}:${check.line} (${at}, snippet-mirrors): ${check.what}: ${message}`;
  const offset = diagnostic.start - source.start;
  if (offset < 0 || offset > block.code.length) return `${block.doc}:${block.line} (in the snippet comments above ${at}): ${message}`;
  const { line, character } = ts.getLineAndCharacterOfPosition(ts.createSourceFile('block.ts', block.code, ts.ScriptTarget.Latest), offset);
  return `${block.doc}:${block.line + 1 + line}:${character + 1} (${at}): ${message}`;
}

/** A package folder as installed in some workspace package's node_modules (pnpm links each where it is a dependency). */
function installedPath(name: string): string {
  for (const folder of ['.', ...PACKAGES]) {
    const path = join(root, folder, 'node_modules', name);
    if (existsSync(path)) return realpathSync(path);
  }
  throw new Error(`${name} is not installed in the workspace: run pnpm install`);
}

const docsDir = join(root, 'docs');
const blocks = readdirSync(docsDir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .flatMap((name) => extractBlocks(`docs/${name}`, readFileSync(join(docsDir, name), 'utf8')));
const compiled = blocks.filter((b) => !b.skipped && !b.malformed);
const skipped = blocks.filter((b) => b.skipped);
let project: string | undefined;
/** Each compiled block's diagnostics, as the guide's reader finds them. */
const diagnostics = new Map<Block, string[]>();

beforeAll(async () => {
  // A user's project: its own package.json (ESM), the packages and peers in node_modules.
  const dir = await mkdtemp(join(tmpdir(), 'tiller-doc-snippets-'));
  project = dir;
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'doc-snippets', private: true, type: 'module' }));
  const modules = join(dir, 'node_modules');
  const links: [string, string][] = [];
  for (const folder of PACKAGES) {
    const { name } = JSON.parse(await readFile(join(root, folder, 'package.json'), 'utf8')) as { name: string };
    if (name.startsWith('@tiller/')) links.push([name, join(root, folder)]);
  }
  for (const name of INSTALLED) links.push([name, installedPath(name)]);
  for (const [name, target] of links) {
    await mkdir(dirname(join(modules, name)), { recursive: true });
    await symlink(target, join(modules, name), 'dir');
  }

  const snippets = join(dir, 'src');
  await mkdir(snippets);
  const sources = compiled.map((b, i) => sourceOf(b, snippets, i));
  for (const source of sources) await writeFile(source.file, source.text);
  const program = ts.createProgram({ rootNames: sources.map((s) => s.file), options: { ...compilerOptions, typeRoots: [join(modules, '@types')] } });
  const global = program.getGlobalDiagnostics().concat(program.getOptionsDiagnostics());
  if (global.length) throw new Error(ts.formatDiagnostics(global, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => '\n' }));
  for (const source of sources) {
    const file = program.getSourceFile(source.file)!;
    const found = [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)];
    const messages = found.map((d) => describeDiagnostic(source, d));
    if (source.block.mirrors && source.checks.length === 0) messages.push(`${source.block.doc}:${source.block.line}: snippet-mirrors, but the block declares no interface or type to hold to ${source.block.mirrors}'s`);
    diagnostics.set(source.block, messages);
  }
}, 120_000);

afterAll(async () => {
  if (project) await rm(project, { recursive: true, force: true });
});

describe('the ```ts blocks of docs/*.md', () => {
  it('are found, and each is compiled or skipped with its reason', () => {
    // docs/ held 26 blocks when this test was written: an extraction that finds none is broken.
    expect(blocks.length).toBeGreaterThan(20);
    const malformed = blocks.filter((b) => b.malformed).map((b) => `${b.doc}:${b.line}: ${b.malformed}`);
    expect(malformed, 'a snippet comment is "snippet-context: ...", "snippet-mirrors: <package>" or "snippet: not compiled, because ..."').toEqual([]);
    expect(compiled.length + skipped.length).toBe(blocks.length);
    console.log(
      `doc snippets: ${blocks.length} blocks, ${compiled.length} compiled, ${skipped.length} not compiled` +
        skipped.map((b) => `\n  ${b.doc}:${b.line}: not compiled, because ${b.skipped}`).join(''),
    );
  });

  it.each(compiled.map((block) => [`${block.doc}:${block.line}`, block] as const))('%s type-checks against the packages', (_name, block) => {
    const found = diagnostics.get(block);
    if (!found) throw new Error(`${block.doc}:${block.line}: the block was not compiled`);
    if (found.length) throw new Error(`the guide's example does not compile:\n${found.join('\n')}`);
  });
});

describe('the extraction', () => {
  const doc = [
    'text',
    '<!-- snippet-context: declare const agent: { close(): void }; -->',
    '```ts',
    'agent.close();',
    '```',
    '```sh',
    'pnpm test',
    '```',
    '<!-- snippet: not compiled, because it is',
    '     pseudo-code -->',
    '',
    '```ts',
    'when (x) then y',
    '```',
    '- a list',
    '',
    '  ```ts',
    '  const inList = 1;',
    '  ```',
    '<!-- snippet-contxt: typo -->',
    '```typescript',
    'const x = 1;',
    '```',
    '<!-- not ours -->',
    '<!-- snippet-mirrors: @tiller/core -->',
    '<!-- snippet-context: import type { Usage } from "@tiller/core"; -->',
    '```ts',
    'interface Cost { usage: Usage }',
    '```',
  ].join('\n');

  it('takes every ```ts block, its line and the snippet comments directly above it', () => {
    expect(extractBlocks('docs/x.md', doc)).toEqual([
      { doc: 'docs/x.md', line: 3, code: 'agent.close();', context: 'declare const agent: { close(): void };' },
      { doc: 'docs/x.md', line: 12, code: 'when (x) then y', skipped: 'it is pseudo-code' },
      { doc: 'docs/x.md', line: 17, code: 'const inList = 1;' },
      { doc: 'docs/x.md', line: 21, code: 'const x = 1;', malformed: '<!-- snippet-contxt: typo -->' },
      { doc: 'docs/x.md', line: 27, code: 'interface Cost { usage: Usage }', mirrors: '@tiller/core', context: 'import type { Usage } from "@tiller/core";' },
    ]);
  });

  const diagnosticAt = (source: Source, text: string) => {
    const file = ts.createSourceFile(source.file, source.text, ts.ScriptTarget.ES2022);
    const start = source.text.indexOf(text);
    expect(start).toBeGreaterThanOrEqual(0);
    return describeDiagnostic(source, { file, start, length: text.length, code: 2304, category: ts.DiagnosticCategory.Error, messageText: 'Something.' });
  };

  it('puts a block where its context marks it, and reports an error at its line in the guide', () => {
    const block: Block = { doc: 'docs/x.md', line: 10, code: "case 'a':\n  return nope;", context: `function f(x: 'a') {\n  switch (x) {\n${SNIPPET_MARK}\n  }\n}` };
    const source = sourceOf(block, '/tmp', 0);
    expect(source.text).toBe("function f(x: 'a') {\n  switch (x) {\n\ncase 'a':\n  return nope;\n\n  }\n}\n");
    expect(diagnosticAt(source, 'nope')).toBe('docs/x.md:12:10 (the block at line 10): TS2304: Something.');
    expect(diagnosticAt(source, 'switch')).toBe('docs/x.md:10 (in the snippet comments above the block at line 10): TS2304: Something.');
  });

  it("holds each interface of a mirrors block to the package's, reported at the interface's line", () => {
    const block: Block = { doc: 'docs/x.md', line: 5, code: 'type Id = string;\ninterface Box<T> { value: T }', mirrors: '@tiller/core' };
    const source = sourceOf(block, '/tmp', 0);
    expect(source.text).toContain("import type * as __package from \"@tiller/core\";");
    expect(source.text).toContain('type __BoxFits = __Fits<Box<unknown>, __package.Box<unknown>>;');
    expect(source.checks.map((c) => [c.line, c.what])).toEqual([
      [6, "Id is not @tiller/core's Id"],
      [7, "Box is not @tiller/core's Box"],
    ]);
    expect(diagnosticAt(source, '__BoxFits')).toBe("docs/x.md:7 (the block at line 5, snippet-mirrors): Box is not @tiller/core's Box: TS2304: Something.");
  });
});
