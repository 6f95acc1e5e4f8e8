import type { AssistantMessage, Entry, ToolResultMessage } from '@tiller/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Cluster, startCluster, waitFor } from './support/cluster.js';
import { ROUNDS } from './support/test-agent.js';

/**
 * Durable turns against a real Restate server from npm, with two worker processes behind one
 * registered address (a TCP balancer, as in front of any pool). The tests kill the worker process
 * that does the work and check what the user relies on: the turn finishes elsewhere, nothing that
 * finished runs twice, nothing interrupted runs again, and the log holds every entry.
 */
let cluster: Cluster;
beforeAll(async () => {
  cluster = await startCluster(2);
});
afterAll(async () => {
  await cluster?.stop();
});
beforeEach(async () => {
  await cluster.respawn();
  await cluster.clearLog();
});

const plan = (p: Record<string, number>) => JSON.stringify({ rounds: ROUNDS, ...p });
const messages = (entries: Entry[]) => entries.flatMap((e) => (e.kind === 'message' ? [e.message] : []));
const results = (entries: Entry[]) => messages(entries).filter((m): m is ToolResultMessage => m.role === 'toolResult');
const resultOf = (entries: Entry[], id: string) => results(entries).find((r) => r.toolCallId === id);
const textOf = (result: ToolResultMessage | undefined) => result?.content.map((p) => (p.type === 'text' ? p.text : '')).join('') ?? '';

/** Every tool call in the log has exactly one result, after it and before the next assistant message. */
function expectValidTranscript(entries: Entry[]) {
  let open = new Set<string>();
  for (const m of messages(entries)) {
    if (m.role === 'assistant') {
      expect([...open], 'calls without a result before the next model reply').toEqual([]);
      open = new Set((m as AssistantMessage).content.flatMap((p) => (p.type === 'toolCall' ? [p.id] : [])));
    } else if (m.role === 'toolResult') {
      expect(open.delete(m.toolCallId), `a result for ${m.toolCallId} with no open call`).toBe(true);
    }
  }
  expect([...open]).toEqual([]);
  expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  for (let i = 1; i < entries.length; i++) expect(entries[i]!.parentId).toBe(entries[i - 1]!.id);
}

/** How often each `what id` pair occurs in the tool and model log. */
async function counts() {
  const seen = new Map<string, number>();
  for (const [what, id] of await cluster.log()) seen.set(`${what} ${id}`, (seen.get(`${what} ${id}`) ?? 0) + 1);
  return seen;
}

/** The tool events among a turn's logged events, each delivery as `{seq, what}`, in the order of their numbers. */
function toolEventsOf(events: Array<[string, string, number]>) {
  return events
    .flatMap(([, id]) => {
      const [, seq, what] = id.split('/');
      return /^tool\.[a-z]+:/.test(what!) ? [{ seq: Number(seq), what: what! }] : [];
    })
    .sort((a, b) => a.seq - b.seq);
}

const started = (id: string) => async () => (await cluster.log()).find(([w, i]) => w === 'start' && i === id);

describe('a durable turn on Restate', () => {
  it('runs a dozen tool rounds, two calls in parallel each round, and logs every entry', async () => {
    const session = cluster.client.session('plain');
    const outcome = await session.prompt(plan({}));
    expect(outcome).toMatchObject({ status: 'completed', iterations: ROUNDS });
    const entries = await session.entries();
    expect(results(entries)).toHaveLength(2 * ROUNDS);
    expect(results(entries).every((r) => !r.isError)).toBe(true);
    expectValidTranscript(entries);
    expect(await session.running()).toBeNull();
    expect(await session.lastOutcome()).toEqual(outcome);
  });

  it('finishes on the other worker when the worker running a tool is killed: finished calls ran once, the interrupted one never again', async () => {
    const session = cluster.client.session('killed-in-a-tool');
    const turn = await session.start(plan({ slowRound: 5, slowMs: 5_000 }));
    const [, , pid] = await waitFor('the slow tools of round 5 to start', async () => ((await counts()).get('start r5-b') ? (await started('r5-a')()) : undefined));
    await cluster.kill(pid);

    const outcome = await turn.outcome();
    expect(outcome).toMatchObject({ status: 'completed', iterations: ROUNDS });
    const seen = await counts();
    for (let round = 0; round < ROUNDS; round++) {
      for (const id of [`r${round}-a`, `r${round}-b`]) {
        if (round === 5) continue;
        expect(seen.get(`start ${id}`), `${id} started once`).toBe(1);
        expect(seen.get(`end ${id}`), `${id} ended once`).toBe(1);
      }
    }
    // The call to `work` was cut: it never ran again. The idempotent `lookup` ran again, to the end.
    expect(seen.get('start r5-a')).toBe(1);
    expect(seen.get('end r5-a')).toBeUndefined();
    expect(seen.get('start r5-b')).toBe(2);
    expect(seen.get('end r5-b')).toBe(1);
    for (let round = 0; round <= ROUNDS; round++) expect(seen.get(`model ${round}`), `model call ${round} happened once`).toBe(1);
    // The rounds after the kill ran on the other worker.
    const later = (await cluster.log()).filter(([w, id]) => w === 'start' && id.startsWith('r6-'));
    expect(later.length).toBe(2);
    expect(later.every(([, , p]) => p !== pid)).toBe(true);

    const entries = await session.entries();
    expectValidTranscript(entries);
    expect(resultOf(entries, 'r5-a')?.isError).toBe(true);
    expect(textOf(resultOf(entries, 'r5-a'))).toContain('was interrupted');
    expect(resultOf(entries, 'r5-b')).toMatchObject({ isError: false });
    expect(textOf(resultOf(entries, 'r5-b'))).toBe('looked up for 5000 ms');
    expect(results(entries).filter((r) => r.isError)).toHaveLength(1);
    expect(results(entries)).toHaveLength(2 * ROUNDS);

    // Events reach subscribers at least once: the worker that took over delivered again what it replayed.
    const events = (await cluster.log()).filter(([w, id]) => w === 'event' && id.startsWith(`${turn.turnId}/`));
    const bySeq = new Map<number, Set<string>>();
    for (const [, id, p] of events) {
      const [, seq, type] = id.split('/');
      bySeq.set(Number(seq), (bySeq.get(Number(seq)) ?? new Set()).add(`${type}`));
      expect(p === pid || later.some(([, , q]) => q === p)).toBe(true);
    }
    const last = Math.max(...bySeq.keys());
    for (let seq = 0; seq <= last; seq++) expect(bySeq.get(seq)?.size, `event ${seq} delivered, always as the same event`).toBe(1);
    expect([...bySeq.get(last)!]).toEqual(['turn.ended']);
    expect(events.length).toBeGreaterThan(last + 1);
    // Each call's own events came once. The cut round's as the shell tells a resumed batch: `work`
    // interrupted and not run again; `lookup` interrupted to run again, started again, finished.
    const toolEvents = toolEventsOf(events);
    expect(new Set(toolEvents.map(({ seq }) => seq)).size).toBe(toolEvents.length);
    expect(toolEvents.filter(({ what }) => /:r5-[ab]\b/.test(what)).map(({ what }) => what)).toEqual([
      'tool.started:r5-a',
      'tool.started:r5-b',
      'tool.interrupted:r5-a:cut',
      'tool.interrupted:r5-b:rerun',
      'tool.started:r5-b',
      'tool.finished:r5-b',
    ]);
    expect(toolEvents).toHaveLength(2 * 2 * ROUNDS + 2);
    // The other worker told the call's second start as it ran it again, not once it had finished.
    const lines = await cluster.log();
    const restart = lines.findLastIndex(([w, id]) => w === 'event' && id.endsWith('/tool.started:r5-b'));
    expect(lines[restart]![2]).not.toBe(pid);
    expect(restart).toBeLessThan(lines.findIndex(([w, id]) => w === 'end' && id === 'r5-b'));
  });

  it('tells each run again of a call that crashes cut twice: interrupted to run again, then started, each time', async () => {
    const session = cluster.client.session('killed-twice-in-a-tool');
    const turn = await session.start(plan({ rounds: 3, slowRound: 1, slowMs: 2_000 }));
    const [, , first] = await waitFor('the slow tools of round 1 to start', async () => ((await counts()).get('start r1-b') ? (await started('r1-a')()) : undefined));
    await cluster.kill(first);
    // The other worker runs the idempotent `lookup` again: kill it there too, and bring workers back.
    const again = async () => (await cluster.log()).find(([w, id, p]) => w === 'start' && id === 'r1-b' && p !== first);
    const [, , second] = await waitFor('the call to run again on the other worker', again);
    await cluster.kill(second);
    await cluster.respawn();

    expect(await turn.outcome()).toMatchObject({ status: 'completed', iterations: 3 });
    const seen = await counts();
    expect(seen.get('start r1-b')).toBe(3);
    expect(seen.get('end r1-b')).toBe(1);
    expect(seen.get('start r1-a')).toBe(1);
    const events = (await cluster.log()).filter(([w, id]) => w === 'event' && id.startsWith(`${turn.turnId}/`));
    const toolEvents = toolEventsOf(events);
    expect(new Set(toolEvents.map(({ seq }) => seq)).size).toBe(toolEvents.length);
    expect(toolEvents.filter(({ what }) => /:r1-[ab]\b/.test(what)).map(({ what }) => what)).toEqual([
      'tool.started:r1-a',
      'tool.started:r1-b',
      'tool.interrupted:r1-a:cut',
      'tool.interrupted:r1-b:rerun',
      'tool.started:r1-b',
      'tool.interrupted:r1-b:rerun',
      'tool.started:r1-b',
      'tool.finished:r1-b',
    ]);
    // Every number of the turn was delivered, each always as the same event.
    const bySeq = new Map<number, Set<string>>();
    for (const [, id] of events) bySeq.set(Number(id.split('/')[1]), (bySeq.get(Number(id.split('/')[1])) ?? new Set()).add(id.split('/')[2]!));
    const last = Math.max(...bySeq.keys());
    for (let seq = 0; seq <= last; seq++) expect(bySeq.get(seq)?.size, `event ${seq} delivered, always as the same event`).toBe(1);
    const entries = await session.entries();
    expectValidTranscript(entries);
    expect(textOf(resultOf(entries, 'r1-b'))).toBe('looked up for 2000 ms');
    expect(textOf(resultOf(entries, 'r1-a'))).toContain('was interrupted');
  });

  it('makes a model call again when the worker is killed during it: model calls are at least once, tools still once', async () => {
    const session = cluster.client.session('killed-in-a-model-call');
    const turn = await session.start(plan({ rounds: 5, slowModelRound: 3, slowMs: 5_000 }));
    const [, , pid] = await waitFor('the slow model call of round 3', async () => (await cluster.log()).find(([w, id]) => w === 'model' && id === '3'));
    await cluster.kill(pid);

    expect(await turn.outcome()).toMatchObject({ status: 'completed', iterations: 5 });
    const seen = await counts();
    const calls = (await cluster.log()).filter(([w, id]) => w === 'model' && id === '3');
    expect(calls.map(([, , p]) => p === pid)).toEqual([true, false]);
    for (const round of [0, 1, 2, 4, 5]) expect(seen.get(`model ${round}`), `model call ${round} happened once`).toBe(1);
    for (let round = 0; round < 5; round++) {
      for (const id of [`r${round}-a`, `r${round}-b`]) expect(seen.get(`start ${id}`), `${id} started once`).toBe(1);
    }
    expectValidTranscript(await session.entries());
    // The replayed rounds' calls had finished: each call's start and finish, once, and nothing interrupted.
    const toolEvents = toolEventsOf((await cluster.log()).filter(([w, id]) => w === 'event' && id.startsWith(`${turn.turnId}/`)));
    const rounds = Array.from({ length: 5 }, (_, round) => [`r${round}-a`, `r${round}-b`]);
    expect(toolEvents.map(({ what }) => what)).toEqual(rounds.flatMap(([a, b]) => [`tool.started:${a}`, `tool.started:${b}`, `tool.finished:${a}`, `tool.finished:${b}`]));
  });

  it('keeps waiting for an approval on the other worker when the waiting worker is killed', async () => {
    const session = cluster.client.session('killed-while-waiting');
    const turn = await session.start(plan({ rounds: 4, approveRound: 2 }));
    const parked = await waitFor('the turn to wait for an approval', async () => (await session.pendingApprovals()) ?? undefined);
    expect(parked.calls.map((c) => c.id)).toEqual(['r2-deploy']);
    const [, , pid] = (await cluster.log()).find(([w, id]) => w === 'model' && id === '2')!;
    await cluster.kill(pid);

    expect(await session.approve({ toolCallId: 'r2-deploy', decision: 'allow' })).toEqual({ delivered: 'turn' });
    const outcome = await turn.outcome();
    expect(outcome).toMatchObject({ status: 'completed', iterations: 4 });
    const seen = await counts();
    expect(seen.get('start r2-deploy')).toBe(1);
    expect(seen.get('end r2-deploy')).toBe(1);
    expect((await started('r2-deploy')())![2]).not.toBe(pid);
    for (let round = 0; round <= 4; round++) expect(seen.get(`model ${round}`), `model call ${round} happened once`).toBe(1);
    const entries = await session.entries();
    expectValidTranscript(entries);
    expect(textOf(resultOf(entries, 'r2-deploy'))).toBe('deployed');
    expect(await session.pendingApprovals()).toBeNull();
  });

  it("tells each call's tool events once, as the shell does, even when another worker replays the turn", async () => {
    const session = cluster.client.session('tool-events');
    const turn = await session.start(plan({ rounds: 4, refuseRound: 1, approveRound: 2 }));
    await waitFor('the turn to wait for an approval', async () => (await session.pendingApprovals()) ?? undefined);
    const [, , pid] = (await cluster.log()).find(([w, id]) => w === 'model' && id === '2')!;
    // The other worker replays the turn from its start: every event before the approval again, but no tool event.
    await cluster.kill(pid);
    expect(await session.approve({ toolCallId: 'r2-deploy', decision: 'allow' })).toEqual({ delivered: 'turn' });
    expect(await turn.outcome()).toMatchObject({ status: 'completed', iterations: 4 });

    const events = (await cluster.log()).filter(([w, id]) => w === 'event' && id.startsWith(`${turn.turnId}/`)).map(([, id]) => id.split('/').slice(1).join('/'));
    const toolEvents = events.filter((e) => /^\d+\/tool\.(refused|started|finished|interrupted):/.test(e));
    const calls = ['r0-a', 'r0-b', 'r1-a', 'r1-b', 'r2-deploy', 'r3-a', 'r3-b'];
    expect(toolEvents.map((e) => e.split('/')[1]).sort()).toEqual(
      ['tool.refused:r1-nope', ...calls.flatMap((id) => [`tool.started:${id}`, `tool.finished:${id}`])].sort(),
    );
    // In the shell's order: the batch's refusals, then each call's start before its finish, inside the batch's tools.started and tools.finished.
    const seqOf = (what: string) => Number(events.find((e) => e.endsWith(`/${what}`))!.split('/')[0]);
    expect(seqOf('tool.refused:r1-nope')).toBeLessThan(seqOf('tool.started:r1-a'));
    for (const id of calls) expect(seqOf(`tool.started:${id}`)).toBeLessThan(seqOf(`tool.finished:${id}`));
    expect(seqOf('tools.started')).toBeLessThan(seqOf('tool.started:r0-a'));
    expect(seqOf('tool.finished:r0-b')).toBeLessThan(seqOf('tools.finished'));
    // The core's events of the replayed part came again, with the same numbers: the turn did replay.
    const coreEvents = events.filter((e) => !toolEvents.includes(e));
    expect(coreEvents.filter((e) => e.endsWith('/tools.started')).length).toBeGreaterThan(new Set(coreEvents.filter((e) => e.endsWith('/tools.started'))).size);
    const entries = await session.entries();
    expectValidTranscript(entries);
    expect(textOf(resultOf(entries, 'r1-nope'))).toContain('Unknown tool "nope"');
  });

  it('delivers a steer sent during a tool at the boundary after that batch', async () => {
    const session = cluster.client.session('steered');
    const turn = await session.start(plan({ rounds: 6, slowRound: 3, slowMs: 1_500 }));
    await waitFor('the slow tool of round 3 to start', started('r3-a'));
    expect(await session.steer('use the other branch')).toEqual({ delivered: 'turn' });

    const outcome = await turn.outcome();
    expect(outcome).toMatchObject({ status: 'completed', iterations: 6 });
    const ms = messages(await session.entries());
    const steer = ms.findIndex((m) => m.role === 'user' && m.content === 'use the other branch');
    expect(steer).toBeGreaterThan(0);
    // Right after the results of round 3, before the model's next reply.
    expect(ms.slice(steer - 2, steer).map((m) => (m as ToolResultMessage).toolCallId)).toEqual(['r3-a', 'r3-b']);
    expect(ms[steer + 1]?.role).toBe('assistant');
    expect((ms.at(-1) as AssistantMessage).content).toEqual([{ type: 'text', text: 'done after 6 rounds, 1 steers' }]);
  });

  it('drops a steer or follow-up sent while no turn runs, as the core and the shell do: the host gets the note with its message, and no turn sees it', async () => {
    const session = cluster.client.session('steered-early');
    const steer = await session.steer('mind the tests');
    expect(steer).toEqual({
      delivered: 'dropped',
      note: { eventType: 'steer', reason: 'no turn is running', at: expect.any(String), message: { role: 'user', content: 'mind the tests' } },
    });
    expect(await session.followUp('and the docs')).toMatchObject({ delivered: 'dropped', note: { eventType: 'follow_up', message: { content: 'and the docs' } } });
    const outcome = await session.prompt(plan({ rounds: 1 }));
    expect(outcome).toMatchObject({ status: 'completed', iterations: 1 });
    const ms = messages(await session.entries());
    expect(ms.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([plan({ rounds: 1 })]);
    expect((ms.at(-1) as AssistantMessage).content).toEqual([{ type: 'text', text: 'done after 1 rounds, 0 steers' }]);
  });

  it('drops a steer its turn never took before an abort, with a note to the host, instead of handing it to the next turn', async () => {
    const session = cluster.client.session('steered-then-aborted');
    const turn = await session.start(plan({ slowRound: 1, slowMs: 30_000 }));
    await waitFor('the slow tools of round 1 to start', started('r1-b'));
    expect(await session.steer('too late')).toEqual({ delivered: 'turn' });
    expect(await session.abort('stop now')).toBe(true);
    expect(await turn.outcome()).toMatchObject({ status: 'aborted', reason: 'stop now' });
    // onEvent saw the core drop it, before the turn's end.
    const events = (await cluster.log()).filter(([what, id]) => what === 'event' && id.startsWith(`${turn.turnId}/`)).map(([, id]) => id.split('/')[2]);
    expect(events).toContain('event.ignored');
    expect(events.indexOf('event.ignored')).toBeLessThan(events.indexOf('turn.ended'));

    const next = await session.prompt(plan({ rounds: 3 }));
    expect(next.status).toBe('completed');
    const users = messages(await session.entries()).filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).not.toContain('too late');
  });

  it('ends an aborted turn `aborted` with a closed transcript, stopping the running tools', async () => {
    const session = cluster.client.session('aborted');
    const turn = await session.start(plan({ slowRound: 2, slowMs: 30_000 }));
    await waitFor('the slow tools of round 2 to start', started('r2-b'));
    expect(await session.abort('stop now')).toBe(true);

    const outcome = await turn.outcome();
    expect(outcome).toMatchObject({ status: 'aborted', reason: 'stop now', iterations: 2 });
    const seen = await counts();
    expect(seen.get('end r2-a')).toBeUndefined();
    expect(seen.get('model 3')).toBeUndefined();
    const entries = await session.entries();
    expectValidTranscript(entries);
    expect(resultOf(entries, 'r2-a')?.isError).toBe(true);
    expect(resultOf(entries, 'r2-b')?.isError).toBe(true);
    expect(await session.abort('again')).toBe(false);
    // The session goes on: the next turn builds on the whole log.
    const next = await session.prompt(plan({ rounds: 4 }));
    expect(next.status).toBe('completed');
  });
});
