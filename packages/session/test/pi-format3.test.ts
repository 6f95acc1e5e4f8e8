import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionManager } from '@mariozechner/pi-coding-agent';
import { generatePiSession } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { createSessionLog, CustomTypes, exportPiSession, importPiSession, JsonlStore, MemoryStore, type TreeNode } from '../src/index.js';
import { contextDifferences, piContext, piFileText } from './pi-reference.js';

const usage = (input: number) => ({
  input,
  output: 20,
  cacheRead: 5,
  cacheWrite: 0,
  totalTokens: input + 25,
  cost: { input: 0.001, output: 0.002, cacheRead: 0, cacheWrite: 0, total: 0.003 },
});

/** A session that uses every entry type and message role pi writes, with two branches and two compactions. */
function makePiSession(): { manager: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory('/work/project');
  const ids: Record<string, string> = {};
  sm.appendThinkingLevelChange('high');
  sm.appendModelChange('anthropic', 'claude-sonnet-4-5');
  ids.u1 = sm.appendMessage({ role: 'user', content: 'read a.ts', timestamp: 1_700_000_000_000 });
  ids.a1 = sm.appendMessage({
    role: 'assistant',
    content: [
      { type: 'thinking', thinking: 'I should read it', thinkingSignature: 'sig-1' },
      { type: 'text', text: 'Reading.', textSignature: 'msg_1' },
      { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.ts' }, thoughtSignature: 'ts-1' },
    ],
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    responseId: 'resp_1',
    usage: usage(100),
    stopReason: 'toolUse',
    timestamp: 1_700_000_001_000,
  });
  ids.t1 = sm.appendMessage({
    role: 'toolResult',
    toolCallId: 'call_1',
    toolName: 'read',
    content: [
      { type: 'text', text: 'export const a = 1;' },
      { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
    ],
    details: { lines: 1 },
    isError: false,
    timestamp: 1_700_000_002_000,
  });
  sm.appendMessage({ role: 'bashExecution', command: 'ls', output: 'a.ts\nb.ts', exitCode: 1, cancelled: false, truncated: true, fullOutputPath: '/tmp/out', timestamp: 1_700_000_003_000 });
  sm.appendMessage({ role: 'bashExecution', command: 'cat .env', output: 'SECRET', exitCode: 0, cancelled: false, truncated: false, timestamp: 1_700_000_004_000, excludeFromContext: true });
  sm.appendMessage({ role: 'bashExecution', command: 'sleep 9', output: '', exitCode: undefined, cancelled: true, truncated: false, timestamp: 1_700_000_004_500 });
  sm.appendCustomMessageEntry('note', 'remember the style guide', true, { source: 'ext' });
  sm.appendCustomMessageEntry('screenshot', [{ type: 'text', text: 'see' }, { type: 'image', data: 'R0lGOD==', mimeType: 'image/gif' }], false);
  sm.appendMessage({ role: 'custom', customType: 'ext', content: 'from an extension', display: true, timestamp: 1_700_000_005_000 });
  sm.appendLabelChange(ids.u1, 'start');
  sm.appendSessionInfo('the refactor');
  sm.appendCustomEntry('ext-state', { step: 2 });
  sm.appendCustomEntry('tiller.label', { collides: true });
  ids.u2 = sm.appendMessage({ role: 'user', content: [{ type: 'text', text: 'now b.ts' }], timestamp: 1_700_000_006_000 });
  ids.a2 = sm.appendMessage({
    role: 'assistant',
    content: [{ type: 'text', text: 'Done.' }],
    api: 'openai-responses',
    provider: 'openai',
    model: 'gpt-5.1-codex',
    usage: usage(300),
    stopReason: 'stop',
    timestamp: 1_700_000_007_000,
  });
  ids.c1 = sm.appendCompaction('Read a.ts; listed files.', ids.u2, 5000, { readFiles: ['a.ts'], modifiedFiles: [] });
  ids.u3 = sm.appendMessage({ role: 'user', content: 'and then?', timestamp: 1_700_000_008_000 });
  ids.a3 = sm.appendMessage({
    role: 'assistant',
    content: [],
    api: 'anthropic-messages',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    usage: usage(0),
    stopReason: 'error',
    errorMessage: 'overloaded',
    timestamp: 1_700_000_009_000,
  });
  // A second line of work from the first user message, carrying a summary of the one it left.
  ids.b1 = sm.branchWithSummary(ids.u1, 'Tried listing files; nothing found.', { readFiles: [], modifiedFiles: ['b.ts'] }, true);
  ids.u4 = sm.appendMessage({ role: 'user', content: 'on the branch', timestamp: 1_700_000_010_000 });
  ids.c2 = sm.appendCompaction('Branch summary so far.', ids.u4, 7000, { artifacts: ['x'] }, true);
  ids.u5 = sm.appendMessage({ role: 'user', content: 'after the second compaction', timestamp: 1_700_000_011_000 });
  return { manager: sm, ids };
}

type PiTreeNode = ReturnType<SessionManager['getTree']>[number];

function shape(nodes: readonly (TreeNode | PiTreeNode)[]): unknown[] {
  return nodes.map((n) => [n.entry.id, n.label ?? null, shape(n.children)]);
}

describe('importPiSession on pi format 3 sessions made by pi itself', () => {
  const { manager, ids } = makePiSession();
  const text = piFileText(manager);
  const imported = importPiSession(text);
  const log = createSessionLog(new MemoryStore(imported.entries));

  it('keeps pi ids, the tree, the leaf, labels and the session name', () => {
    expect(imported.version).toBe(3);
    expect(imported.entries.map((e) => e.id)).toEqual(manager.getEntries().map((e) => e.id));
    expect(imported.leafId).toBe(manager.getLeafId());
    expect(shape(log.tree())).toEqual(shape(manager.getTree()));
    expect(log.labelOf(ids.u1!)).toBe('start');
    expect(log.sessionName).toBe(manager.getSessionName());
  });

  it('builds the context pi builds, at every entry of the tree', () => {
    for (const entry of manager.getEntries()) {
      expect(contextDifferences(log.context(entry.id), piContext(text, entry.id)), `at ${entry.type} ${entry.id}`).toEqual([]);
    }
  });

  it('maps what Tiller has no kind for to reserved custom entries', () => {
    const customTypes = imported.entries.flatMap((e) => (e.kind === 'custom' ? [e.customType] : []));
    expect(customTypes).toEqual([
      CustomTypes.piThinkingLevelChange,
      CustomTypes.piModelChange,
      CustomTypes.piMessage,
      CustomTypes.piMessage,
      CustomTypes.piMessage,
      CustomTypes.piCustomMessage,
      CustomTypes.piCustomMessage,
      CustomTypes.piMessage,
      CustomTypes.label,
      CustomTypes.sessionName,
      'ext-state',
      CustomTypes.piCustom,
    ]);
    const compaction = imported.entries.find((e) => e.id === ids.c1);
    expect(compaction).toMatchObject({ kind: 'compaction', firstKeptEntryId: ids.u2, tokensBefore: 5000, details: { readFiles: ['a.ts'], modifiedFiles: [] } });
  });

  it('import, export, import gives the same entries; pi sees the export as the original at every entry', () => {
    const exported = exportPiSession(imported.entries, { header: imported.header });
    const again = importPiSession(exported);
    expect(again.entries).toEqual(imported.entries);
    for (const entry of manager.getEntries()) expect(piContext(exported, entry.id)).toEqual(piContext(text, entry.id));
    // Line for line, the export is the file pi wrote.
    expect(exported.split('\n').map((l) => (l ? JSON.parse(l) : l))).toEqual(text.split('\n').map((l) => (l ? JSON.parse(l) : l)));
  });

  it('what the import keeps of pi survives a JSONL store', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tiller-pi-'));
    try {
      const file = join(dir, 'imported.jsonl');
      const store = await JsonlStore.open(file, { create: true });
      await store.append(imported.entries);
      await store.close();
      const reopened = await JsonlStore.open(file, { readOnly: true, strict: true });
      expect(exportPiSession(reopened.entries, { header: imported.header })).toBe(exportPiSession(imported.entries, { header: imported.header }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads format 2 (hookMessage became custom in format 3) as pi does', () => {
    const lines = text.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    lines[0]!.version = 2;
    const hook = lines.find((l) => (l.message as { role?: string } | undefined)?.role === 'custom')!;
    (hook.message as { role: string }).role = 'hookMessage';
    const v2 = lines.map((l) => JSON.stringify(l)).join('\n');
    const fromV2 = importPiSession(v2);
    expect(fromV2.version).toBe(2);
    expect(fromV2.entries).toEqual(imported.entries);
    const v2log = createSessionLog(new MemoryStore(fromV2.entries));
    expect(contextDifferences(v2log.context(), piContext(v2))).toEqual([]);
  });
});

describe('importPiSession on generated pi format 3 sessions (branches, branch summaries, compactions)', () => {
  for (const seed of [11, 12]) {
    const generated = generatePiSession({ seed, format: 3 });
    const text = generated.text;
    const imported = importPiSession(text);
    const log = createSessionLog(new MemoryStore(imported.entries));
    const piEntries = text.trim().split('\n').slice(1).map((l) => JSON.parse(l) as { id: string; type: string });

    it(`seed ${seed}: keeps pi's ids and leaf, and holds the branches`, () => {
      expect(imported.version).toBe(3);
      expect(imported.warnings).toEqual([]);
      expect(imported.entries.map((e) => e.id)).toEqual(piEntries.map((e) => e.id));
      expect(imported.leafId).toBe(generated.leafId);
      expect(imported.entries.filter((e) => e.kind === 'branch_summary')).toHaveLength(generated.counts.branchSummaries);
      expect(generated.counts.branchSummaries).toBeGreaterThan(0);
    });

    it(`seed ${seed}: builds the context pi builds, at every entry of the tree`, () => {
      for (const entry of piEntries) {
        expect(contextDifferences(log.context(entry.id), piContext(text, entry.id)), `at ${entry.type} ${entry.id}`).toEqual([]);
      }
    });

    it(`seed ${seed}: exports the file pi wrote, line for line`, () => {
      const exported = exportPiSession(imported.entries, { header: imported.header });
      expect(exported.split('\n').map((l) => (l ? JSON.parse(l) : l))).toEqual(text.split('\n').map((l) => (l ? JSON.parse(l) : l)));
    });
  }
});
