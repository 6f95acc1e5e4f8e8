import { createActor, type AnyActorScope, type ExecutableActionsFrom } from 'xstate';
import type { MachineEvent } from './events.js';
import { turnMachine } from './machine.js';
import type { TurnSnapshot } from './snapshot.js';

type TurnAction = ExecutableActionsFrom<typeof turnMachine>;

let scope: AnyActorScope | undefined;

/**
 * One step of the machine that executes nothing and returns the actions it would run: what
 * XState's `transition()` does, without building a throwaway actor for every call (most of its
 * cost for a small step). The scope is inert: it runs no action, spawns nothing, keeps no clock.
 */
export function pureTransition(snapshot: TurnSnapshot, event: MachineEvent): [TurnSnapshot, TurnAction[]] {
  scope ??= inertScope();
  const actions: TurnAction[] = [];
  scope.actionExecutor = (action) => {
    actions.push(action as TurnAction);
  };
  const next = turnMachine.transition(snapshot, event, scope);
  return [next, actions];
}

function inertScope(): AnyActorScope {
  const self = createActor(turnMachine, { input: { maxIterations: 0, entries: [] } });
  return {
    self,
    id: '',
    sessionId: '',
    system: self.system,
    logger: () => {},
    defer: () => {},
    emit: () => {},
    stopChild: () => {},
    actionExecutor: () => {},
  } as AnyActorScope;
}
