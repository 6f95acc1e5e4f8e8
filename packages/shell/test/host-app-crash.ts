/**
 * Runs the host app of the docs with a model that stops answering after the first tool round, so
 * that a test can kill the process mid-turn (`node --import tsx test/host-app-crash.ts <dir>`).
 */
import { runHostApp } from '../examples/host-app.js';
import { scriptedModel } from '@tiller/testing';

const dir = process.argv[2];
if (!dir) throw new Error('usage: host-app-crash.ts <dir>');
await runHostApp({
  dir,
  prompt: 'Add bread to my groceries.',
  model: scriptedModel([{ toolCalls: [{ name: 'read_note', args: { title: 'groceries' } }] }, { text: 'never sent', delayMs: Infinity }], { contextWindow: 32_000 }),
});
