import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { scriptedModel } from '@tiller/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentClosedError, AgentOptionsError, createAgent, defineTool, fileJournal, journalPathFor, resumeAgent } from '../src/index.js';
import { nextEvent } from './helpers.js';

/**
 * A host that shuts down (a deploy, a restart) closes its agents. `close({keepTurn: true})` leaves
 * a running turn in the journal for `resumeAgent`, as a crash would, but with the files closed:
 * a parked approval is still waiting after the restart, a model call is made again.
 */
async function sessionFile(): Promise<string> {
  return join(await mkdtemp(join(tmpdir(), 'tiller-keep-turn-')), 'chat.jsonl');
}

function danger(runs: string[]) {
  return defineTool({ name: 'danger', description: 'needs approval', input: z.object({}), execute: () => (runs.push('ran'), 'done') });
}

/** An agent whose turn waits for approval of `danger`, closed with `keepTurn`: its prompt rejects, its files are closed. */
async function parkApprovalAndClose(limits: { approvalTimeoutMs?: number } = {}) {
  const file = await sessionFile();
  const runs: string[] = [];
  const settings = { tools: [danger(runs)], policy: () => ({ decision: 'ask' as const }), limits };
  const session = createSessionLog(await JsonlStore.open(file, { create: true }));
  const agent = createAgent({ ...settings, model: scriptedModel([{ toolCalls: [{ name: 'danger' }] }]), session });
  const turn = agent.prompt('do the dangerous thing');
  const asked = await nextEvent(agent, 'approval.requested');
  const refused = expect(turn).rejects.toThrow(AgentClosedError);
  await agent.close({ keepTurn: true });
  await refused;
  await session.close();
  return { file, runs, settings, asked };
}

describe('close({keepTurn: true})', () => {
  it('leaves a parked approval for resumeAgent: the call still waits after the restart, and runs once when allowed', async () => {
    const { file, runs, settings, asked } = await parkApprovalAndClose();
    expect(await readFile(file, 'utf8')).not.toContain('aborted');

    const reopened = createSessionLog(await JsonlStore.open(file));
    const resumed = await resumeAgent({ ...settings, model: scriptedModel([{ text: 'It is done.' }]), session: reopened, journal: fileJournal(journalPathFor(file)) });
    expect(resumed.pendingApprovals().map((c) => c.id)).toEqual(asked.calls.map((c) => c.id));
    resumed.approve({ toolCallId: asked.calls[0]!.id, decision: 'allow' });
    expect((await resumed.idle())?.status).toBe('completed');
    expect(runs).toEqual(['ran']);
    expect(resumed.lastReply()?.text).toBe('It is done.');
    await resumed.close();
    await reopened.close();
  });

  it('tells nothing after turn.ended when a resumed agent is closed at once: the retold approval request is for a turn that is over', async () => {
    // Before: the request was told again after the close had ended the turn, and a listener that approved from it got ApprovalError.
    const { file, settings } = await parkApprovalAndClose();
    const reopened = createSessionLog(await JsonlStore.open(file));
    const heard: string[] = [];
    const failures: string[] = [];
    const resumed = await resumeAgent({
      ...settings,
      model: scriptedModel([]),
      session: reopened,
      journal: fileJournal(journalPathFor(file)),
      listener: (event) => {
        heard.push(event.type);
        if (event.type === 'shell.error') failures.push(event.message);
      },
    });
    await resumed.close();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard.slice(heard.indexOf('turn.ended') + 1)).toEqual([]);
    expect(failures).toEqual([]);
    await reopened.close();
  });

  it('counts the approval timeout from when the batch was parked, not from the restart', async () => {
    // Before: every restart gave a waiting batch a fresh approvalTimeoutMs, so one kept alive by restarts waited for ever.
    const { file, runs, settings } = await parkApprovalAndClose({ approvalTimeoutMs: 1_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const reopened = createSessionLog(await JsonlStore.open(file));
    const resumed = await resumeAgent({ ...settings, model: scriptedModel([{ text: 'Not allowed, then.' }]), session: reopened, journal: fileJournal(journalPathFor(file)) });
    // Its time is up: the batch goes on denied at once, not a second later.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(resumed.pendingApprovals()).toEqual([]);
    expect((await resumed.idle())?.status).toBe('completed');
    expect(runs).toEqual([]);
    const results = reopened.context().filter((m) => m.role === 'toolResult');
    expect(JSON.stringify(results)).toContain('No decision was made within 1000 ms.');
    await resumed.close();
    await reopened.close();
  });

  it("tells the resumed agent's listener of the approval its turn waits for, so a host that approves from events goes on", async () => {
    const { file, runs, settings, asked } = await parkApprovalAndClose();

    const reopened = createSessionLog(await JsonlStore.open(file));
    const heard: string[][] = [];
    const resumed = await resumeAgent({
      ...settings,
      model: scriptedModel([{ text: 'It is done.' }]),
      session: reopened,
      journal: fileJournal(journalPathFor(file)),
      // As the example host app does: decide when the request is heard.
      listener: (event) => {
        if (event.type !== 'approval.requested') return;
        heard.push(event.calls.map((c) => c.id));
        resumed.approve(event.calls.map((c) => ({ toolCallId: c.id, decision: 'allow' as const })));
      },
    });
    expect((await resumed.idle())?.status).toBe('completed');
    expect(heard).toEqual([asked.calls.map((c) => c.id)]);
    expect(runs).toEqual(['ran']);
    await resumed.close();
    await reopened.close();
  });

  it('leaves a model call for resumeAgent, which makes it again; nothing of the cut call reaches the log', async () => {
    const file = await sessionFile();
    const session = createSessionLog(await JsonlStore.open(file, { create: true }));
    const agent = createAgent({ model: scriptedModel([{ text: 'never heard', delayMs: Infinity }]), session });
    const turn = agent.prompt('hello');
    await nextEvent(agent, 'llm.started');
    const refused = expect(turn).rejects.toThrow(AgentClosedError);
    await agent.close({ keepTurn: true });
    await refused;
    await expect(agent.idle()).rejects.toThrow(AgentClosedError);
    await session.close();

    const reopened = createSessionLog(await JsonlStore.open(file));
    const resumed = await resumeAgent({ model: scriptedModel([{ text: 'hello to you' }]), session: reopened, journal: fileJournal(journalPathFor(file)) });
    expect((await resumed.idle())?.status).toBe('completed');
    expect(reopened.context().map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(resumed.lastReply()?.text).toBe('hello to you');
    await resumed.close();
    await reopened.close();
  });

  it('leaves a tool call it cut short as interrupted: the resume does not run it again, and tells the model so', async () => {
    const file = await sessionFile();
    const runs: string[] = [];
    const slow = defineTool({
      name: 'slow',
      description: 'waits for its signal',
      input: z.object({}),
      execute: (_args, { signal }) => (runs.push('started'), new Promise<string>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('stopped'))))),
    });
    const session = createSessionLog(await JsonlStore.open(file, { create: true }));
    const agent = createAgent({ model: scriptedModel([{ toolCalls: [{ name: 'slow' }] }]), tools: [slow], session });
    const turn = agent.prompt('go');
    await nextEvent(agent, 'tool.started');
    const refused = expect(turn).rejects.toThrow(AgentClosedError);
    await agent.close({ keepTurn: true });
    await refused;
    await session.close();

    const reopened = createSessionLog(await JsonlStore.open(file));
    const events: string[] = [];
    const model = scriptedModel([{ text: 'noted' }]);
    const resumed = await resumeAgent({ model, tools: [slow], session: reopened, journal: fileJournal(journalPathFor(file)), listener: (e) => events.push(e.type) });
    expect((await resumed.idle())?.status).toBe('completed');
    expect(runs).toEqual(['started']);
    expect(events).toContain('tool.interrupted');
    const result = reopened.context().find((m) => m.role === 'toolResult');
    expect(JSON.stringify(result)).toContain('interrupted');
    await resumed.close();
    await reopened.close();
  });

  it('is refused for an agent that keeps no journal, naming the option; the agent stays open', async () => {
    const agent = createAgent({ model: scriptedModel([{ text: 'hi' }]) });
    await expect(agent.close({ keepTurn: true })).rejects.toThrow(AgentOptionsError);
    await expect(agent.close({ keepTurn: true })).rejects.toThrow(/keepTurn.*journal/);
    await expect(agent.close({ keeptTurn: true } as never)).rejects.toThrow(/keeptTurn/);
    expect((await agent.prompt('still open?')).status).toBe('completed');
    await agent.close();
  });
});
