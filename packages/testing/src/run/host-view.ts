import { AgentBusyError, type Agent, type AgentListener } from '@tiller/shell';
import type { World } from './world.js';

/**
 * The agent as the host code sees it: the same agent, with its calls watched (a prompt during a
 * turn is a host bug), and its listeners silenced once their process has crashed.
 */
export function hostView(agent: Agent, world: World, generation: number, misuse: (message: string) => void): Agent {
  const live = () => world.generation === generation;
  return new Proxy(agent, {
    get(target, property, receiver) {
      switch (property) {
        case 'prompt':
          return (input: Parameters<Agent['prompt']>[0]) => {
            const turn = target.prompt(input);
            turn.catch((error: unknown) => {
              // By its marker: the host's agent may come from another copy of @tiller/shell.
              if (AgentBusyError.isInstance(error) && live()) misuse(`the host called prompt() while a turn was running: ${error.message}`);
            });
            return turn;
          };
        case 'subscribe':
          return (listener: AgentListener) => target.subscribe((event) => (live() ? listener(event) : undefined));
        default: {
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
        }
      }
    },
  });
}
