import { AgentBusyError, type Agent } from '@tiller/shell';
import { expect, it } from 'vitest';
import { hostView } from './host-view.js';
import type { World } from './world.js';

it('reports a prompt made while a turn runs as a host bug, when the agent comes from another copy of @tiller/shell', async () => {
  // A second instance of the error's module, as the host's own @tiller/shell (another version) makes.
  const secondCopy = `${new URL('../../../shell/src/errors/agent-busy-error.ts', import.meta.url).pathname}?second-copy`;
  const copy = (await import(/* @vite-ignore */ secondCopy)) as { AgentBusyError: typeof AgentBusyError };
  expect(copy.AgentBusyError).not.toBe(AgentBusyError);
  const agent = { prompt: () => Promise.reject(new copy.AgentBusyError('agent.prompt: a turn is already running')) } as unknown as Agent;
  const misuses: string[] = [];
  const view = hostView(agent, { generation: 1 } as World, 1, (message) => misuses.push(message));
  await expect(view.prompt('again')).rejects.toThrow(/already running/);
  expect(misuses).toEqual(['the host called prompt() while a turn was running: agent.prompt: a turn is already running']);
});
