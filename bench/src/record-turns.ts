import type { TurnSnapshot } from '@tiller/core';
import { createTurnDriver } from '@tiller/testing';

/** Inputs of one scripted turn: a tool round, then a final answer. */
export const EVENTS_PER_TURN = 6;

/**
 * The inputs of `turns` scripted turns on top of `snapshot`, as the shell would send them: each
 * turn starts, passes the boundary check, calls one tool, passes the check between rounds and
 * ends with an answer. Stepping these inputs from the same snapshot reproduces the same turns
 * (turn ids `<turnPrefix>-<n>`), so a benchmark times stepping without building inputs in the loop.
 */
export function recordTurns(snapshot: TurnSnapshot, turns: number, turnPrefix = 'bench'): unknown[] {
  const driver = createTurnDriver({}, { snapshot });
  for (let t = 0; t < turns; t++) {
    driver.startTurn(`question ${t}`, `${turnPrefix}-${t}`);
    driver.compactionDone();
    driver.toolCalls({ id: `call-${t}`, name: 'read', args: { path: `file-${t}.ts` } });
    driver.toolsDone();
    driver.compactionDone();
    driver.reply(`answer ${t}`);
  }
  return driver.steps.map((s) => s.event);
}
