import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runHostApp } from '../examples/host-app.js';
import { parseJournalLines, replayJournal } from '../src/index.js';
import { scriptedModel } from '@tiller/testing';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

describe('the host app of docs/shell.md', () => {
  it('runs a turn with a tool, an approval and streaming output into a session file with its journal', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-host-'));
    dirs.push(dir);
    const run = await runHostApp({ dir, prompt: 'Add bread to my groceries.' });
    expect(run.outcome).toMatchObject({ status: 'completed', iterations: 2 });
    const printed = run.output.join('');
    expect(printed).toContain('[read_note]');
    expect(printed).toContain('[asks to run write_note]');
    expect(printed).toContain('Done: the list is now milk, eggs, bread.');
    const sessionLines = (await readFile(run.sessionFile, 'utf8')).trim().split('\n');
    expect(sessionLines.length).toBe(1 + 6);
    const journal = parseJournalLines(await readFile(join(dir, 'notes-session.journal.jsonl'), 'utf8'));
    expect(replayJournal(journal).divergence).toBeNull();
  });

  it('continues the same session on the next run, and a denied write is reported to the model', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-host-'));
    dirs.push(dir);
    await runHostApp({ dir, prompt: 'Add bread to my groceries.' });
    const model = scriptedModel([{ toolCalls: [{ name: 'write_note', args: { title: 'groceries', text: '' } }] }, { text: 'Left it alone.' }], { contextWindow: 32_000 });
    const second = await runHostApp({ dir, prompt: 'Clear the list.', model, approve: false });
    expect(second.outcome).toMatchObject({ status: 'completed' });
    expect(model.requests[0]!.messages.map((m) => m.role).slice(0, 3)).toEqual(['user', 'assistant', 'toolResult']);
    expect(model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'toolResult', isError: true, content: [{ text: expect.stringContaining('The user said no.') }] });
  });

  it('picks a killed run up where it stood', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-host-'));
    dirs.push(dir);
    const sessionFile = join(dir, 'notes-session.jsonl');
    const here = dirname(fileURLToPath(import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', join(here, 'host-app-crash.ts'), dir], { cwd: join(here, '..'), stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      // Wait for the first tool round to reach the log: user, assistant with the call, the result.
      for (let i = 0; i < 400; i++) {
        const lines = await readFile(sessionFile, 'utf8').then((t) => t.trim().split('\n').length, () => 0);
        if (lines >= 4) break;
        await new Promise((r) => setTimeout(r, 25));
      }
    } finally {
      child.kill('SIGKILL');
    }
    await exited;
    expect((await readFile(sessionFile, 'utf8')).trim().split('\n')).toHaveLength(4);

    const model = scriptedModel([{ text: 'The list has milk and eggs.' }, { text: 'Anything else?' }], { contextWindow: 32_000 });
    const run = await runHostApp({ dir, prompt: 'Thanks.', model });
    expect(run.outcome).toMatchObject({ status: 'completed' });
    // The resumed turn called the model again with the tool result it had; then the new prompt ran.
    expect(model.requests[0]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult']);
    expect(model.requests[1]!.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'toolResult', 'assistant', 'user']);
  }, 30_000);
});
