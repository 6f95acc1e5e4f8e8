import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ToolResultMessage } from '@tiller/core';
import { createAgent } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileToolPolicy, fileTools } from './file-tools.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'tiller-file-tools-'));
  await writeFile(join(root, 'a.txt'), 'one\ntwo\ntwo\nthree\n');
});
afterEach(() => rm(root, { recursive: true, force: true }));

/** Runs one batch of calls through a real agent and returns the results the model got back. */
async function resultsOf(calls: Array<{ name: string; args: Record<string, unknown> }>, askForWrites = false): Promise<ToolResultMessage[]> {
  const model = scriptedModel([{ toolCalls: calls }, { text: 'done' }]);
  const agent = createAgent({ model, tools: fileTools(root), policy: fileToolPolicy({ askForWrites }) });
  agent.subscribe((event) => {
    if (event.type === 'approval.requested') agent.approve(event.calls.map((c) => ({ toolCallId: c.id, decision: 'deny' as const, rationale: 'no' })));
  });
  await agent.prompt('go');
  await agent.close();
  return model.requests[1]!.messages.filter((m): m is ToolResultMessage => m.role === 'toolResult');
}
const textOf = (r: ToolResultMessage) => r.content.map((p) => ('text' in p ? p.text : '')).join('');

describe('the built-in file tools', () => {
  it('list, read (with offset and limit), write (creating folders) and edit files inside the workspace', async () => {
    const results = await resultsOf([
      { name: 'write_file', args: { path: 'src/new.ts', content: 'export {};\n' } },
      { name: 'edit_file', args: { path: 'a.txt', oldText: 'three', newText: 'THREE' } },
      { name: 'read_file', args: { path: 'a.txt', offset: 2, limit: 1 } },
      { name: 'list_files', args: {} },
    ]);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false]);
    expect(textOf(results[0]!)).toBe('Created src/new.ts (2 lines).');
    expect(textOf(results[1]!)).toBe('Edited a.txt at line 4.');
    expect(textOf(results[2]!)).toBe('two\n(3 more lines; read on with offset 3)');
    expect(textOf(results[3]!)).toBe('a.txt\nsrc/\nsrc/new.ts');
    expect(await readFile(join(root, 'src/new.ts'), 'utf8')).toBe('export {};\n');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\ntwo\nTHREE\n');
  });

  it('give the model error results it can act on: a path outside the workspace, text not found or not unique, a missing file', async () => {
    const results = await resultsOf([
      { name: 'read_file', args: { path: '../outside.txt' } },
      { name: 'write_file', args: { path: '/etc/tiller-test', content: 'x' } },
      { name: 'edit_file', args: { path: 'a.txt', oldText: 'four', newText: '4' } },
      { name: 'edit_file', args: { path: 'a.txt', oldText: 'two', newText: '2' } },
      { name: 'read_file', args: { path: 'missing.txt' } },
    ]);
    expect(results.map((r) => r.isError)).toEqual([true, true, true, true, true]);
    expect(textOf(results[0]!)).toContain('../outside.txt is outside the workspace');
    expect(textOf(results[1]!)).toContain('/etc/tiller-test is outside the workspace');
    expect(textOf(results[2]!)).toContain('oldText was not found in a.txt');
    expect(textOf(results[3]!)).toContain('oldText occurs more than once in a.txt');
    expect(textOf(results[4]!)).toContain('missing.txt does not exist; list_files shows what there is');
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\ntwo\nthree\n');
  });

  it('ask before writes under the policy, and a denied write changes nothing', async () => {
    const results = await resultsOf([{ name: 'write_file', args: { path: 'a.txt', content: 'gone' } }, { name: 'read_file', args: { path: 'a.txt' } }], true);
    expect(results[0]).toMatchObject({ isError: true });
    expect(results[1]).toMatchObject({ isError: false });
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\ntwo\nthree\n');
  });

  it('refuse a path that leaves the workspace through a symbolic link, for read, write and edit, and follow links that stay inside', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'tiller-file-tools-outside-'));
    try {
      await writeFile(join(outside, 'secret.txt'), 'secret\n');
      await symlink(outside, join(root, 'link'));
      await symlink(join(outside, 'secret.txt'), join(root, 'alias.txt'));
      await symlink(join(outside, 'nothing-yet.txt'), join(root, 'dangling.txt'));
      await mkdir(join(root, 'docs'));
      await symlink(join(root, 'docs'), join(root, 'docs-link'));
      const results = await resultsOf([
        { name: 'read_file', args: { path: 'link/secret.txt' } },
        { name: 'read_file', args: { path: 'alias.txt' } },
        { name: 'write_file', args: { path: 'link/new/planted.txt', content: 'x' } },
        { name: 'write_file', args: { path: 'dangling.txt', content: 'x' } },
        { name: 'edit_file', args: { path: 'alias.txt', oldText: 'secret', newText: 'gone' } },
        { name: 'list_files', args: { path: 'link' } },
        { name: 'write_file', args: { path: 'docs-link/inside.md', content: 'fine\n' } },
      ]);
      expect(results.map((r) => r.isError)).toEqual([true, true, true, true, true, true, false]);
      for (const [i, path] of ['link/secret.txt', 'alias.txt', 'link/new/planted.txt', 'dangling.txt', 'alias.txt', 'link'].entries()) {
        expect(textOf(results[i]!)).toContain(`${path} leads outside the workspace`);
      }
      expect(textOf(results[0]!)).not.toContain('secret\n');
      expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret\n');
      expect(existsSync(join(outside, 'new'))).toBe(false);
      expect(existsSync(join(outside, 'nothing-yet.txt'))).toBe(false);
      expect(await readFile(join(root, 'docs/inside.md'), 'utf8')).toBe('fine\n');
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('refuse a FIFO instead of opening it (which would block the process for good), saying what it is', async () => {
    const fifo = join(root, 'fifo');
    execFileSync('mkfifo', [fifo]);
    try {
      const results = await resultsOf([
        { name: 'read_file', args: { path: 'fifo' } },
        { name: 'write_file', args: { path: 'fifo', content: 'x' } },
        { name: 'edit_file', args: { path: 'fifo', oldText: 'a', newText: 'b' } },
      ]);
      expect(results.map((r) => r.isError)).toEqual([true, true, true]);
      for (const result of results) expect(textOf(result)).toContain('fifo is a FIFO (named pipe), not a regular file');
    } finally {
      // Were a tool blocked opening it, the other end opened here frees it, so the test ends.
      for (const flags of [constants.O_RDONLY | constants.O_NONBLOCK, constants.O_WRONLY | constants.O_NONBLOCK]) {
        try {
          closeSync(openSync(fifo, flags));
        } catch {
          // ENXIO: nobody waits on the other end
        }
      }
    }
  }, 10_000);
});
