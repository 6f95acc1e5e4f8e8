/**
 * A durable agent's services as a user defines them, against the installed packages only: the
 * objects bound into the user's own Restate endpoint, a worker served over HTTP/2 and asked what
 * it serves (as a Restate server asks at registration), a bad option, the optional server package
 * missing, and the shell's steps run as a durable engine of one's own would run them. No Restate
 * server runs here (the package's own tests run real durable turns). Prints one JSON line.
 */
import { connect as connectHttp2 } from 'node:http2';
import { createRequire } from 'node:module';
import * as restate from '@restatedev/restate-sdk';
import { type CallLlmEffect, start, step, type TurnOutcome } from '@tiller/core';
import {
  connect,
  DurableError,
  type DurableEvent,
  DurableOptionsError,
  durableServices,
  type DurableSession,
  LocalServerError,
  type PostResult,
  serve,
  startLocalServer,
} from '@tiller/restate';
import { defineTool, planToolBatch, resolveLimits, runModelCall, runToolCall, type ToolPolicy } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { z } from 'zod';

const events: DurableEvent[] = [];
const addNote = defineTool({
  name: 'add_note',
  description: 'Adds a line to the notebook.',
  input: z.object({ text: z.string() }),
  execute: ({ text }) => `noted: ${text}`,
});
const policy: ToolPolicy = (call) => (call.name === 'add_note' ? { decision: 'allow' } : { decision: 'ask' });
const agent = {
  model: scriptedModel([{ text: 'hello' }], { id: 'scripted/durable' }),
  tools: [addNote],
  policy,
  limits: { approvalTimeoutMs: 24 * 60 * 60_000 },
  name: 'Notes',
  onEvent: (event: DurableEvent) => void events.push(event),
};

// The objects, bound into an endpoint of the user's own.
const [session, inbox] = durableServices(agent);
const endpoint = restate.endpoint().bind(session).bind(inbox);
void endpoint;

// A worker of its own, asked what it serves.
const worker = await serve({ ...agent, port: 0 });
const services = await discover(worker.url);
await worker.close();

let badOption = '';
try {
  durableServices({ ...agent, limits: { maxRetries: -1 } });
} catch (error) {
  if (DurableOptionsError.isInstance(error) && DurableError.isInstance(error)) badOption = error.message;
}

let noServer = '';
try {
  await (await startLocalServer()).stop();
  noServer = `the server package is installed: ${createRequire(import.meta.resolve('@tiller/restate')).resolve('@restatedev/restate-server/package.json')}`;
} catch (error) {
  if (LocalServerError.isInstance(error)) noServer = error.message;
}

// The host's side, typed: what a steer comes back with.
const notes: DurableSession = connect({ ingressUrl: 'http://127.0.0.1:1', name: 'Notes' }).session('notes');
const droppedMessage = (result: PostResult) => (result.delivered === 'dropped' ? (result.note.message?.content ?? null) : null);
const outcomeStatus = (outcome: TurnOutcome) => outcome.status;
void notes;
void outcomeStatus;

// The shell's steps, as a durable engine of one's own runs them inside its steps.
const at = new Date(0).toISOString();
const begun = step(start({ entries: [] }), { type: 'turn.start', turnId: 't', message: { role: 'user', content: 'hi' }, at });
const boundary = begun.effects.find((e) => e.type === 'maybe_compact')!;
const called = step(begun.snapshot, { type: 'compaction.done', id: boundary.id, at, meta: { compacted: false }, appended: [] });
const effect = called.effects.find((e): e is CallLlmEffect => e.type === 'call_llm')!;
const limits = resolveLimits({ maxRetries: 1 }, 'durable-app');
const answer = await runModelCall(effect, { model: scriptedModel([{ text: 'step answered' }]), tools: [addNote], limits });
const plan = await planToolBatch(
  { type: 'run_tools', id: 'b', calls: [{ type: 'toolCall', id: 'c1', name: 'add_note', args: { text: 'bread' } }], decisions: [] },
  { tools: [addNote], policy, limits },
);
const outcome = plan.kind === 'run' && plan.calls[0]?.kind === 'run' ? await runToolCall(plan.calls[0].call, { tools: [addNote], limits }) : null;

console.log(
  JSON.stringify({
    objects: [session.name, inbox.name],
    services,
    badOption,
    noServer,
    dropped: droppedMessage({ delivered: 'dropped', note: { eventType: 'steer', reason: 'no turn is running', message: { role: 'user', content: 'later' } } }),
    answer: answer.type === 'llm.done' ? answer.message.content : answer.error,
    plan: plan.kind,
    tool: outcome?.content,
    events: events.length,
  }),
);

/** What the endpoint at `url` serves, from its discovery manifest (HTTP/2, as Restate asks for it). */
async function discover(url: string): Promise<string[]> {
  const client = connectHttp2(url);
  try {
    const request = client.request({ ':path': '/discover', ':method': 'GET', accept: 'application/vnd.restate.endpointmanifest.v3+json' });
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    await new Promise<void>((resolve, reject) => {
      request.once('end', resolve);
      request.once('error', reject);
    });
    return (JSON.parse(body) as { services: Array<{ name: string }> }).services.map((s) => s.name);
  } finally {
    client.close();
  }
}
