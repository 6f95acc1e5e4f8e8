import { parseEvent, start, step as stepTurn, type TurnSnapshot } from '@tiller/core';
import type { SessionLog } from '@tiller/session';
import type { JournalLine } from '@tiller/shell';
import { stateIds, transitionsTaken } from '../coverage.js';
import { unansweredCalls } from '../transcript.js';
import { stateName } from '../turn-graph.js';

export type JournalMirror = ReturnType<typeof journalMirror>;

/**
 * The turn as the journal tells it: every input stepped through the core, so the run knows the
 * state after each input, the transitions taken and the transcript at every boundary.
 */
export function journalMirror(sessionNow: () => SessionLog) {
  let read = 0;
  let snapshot: TurnSnapshot | undefined;
  const mirror = {
    inputCount: 0,
    inputTypes: [] as string[],
    states: [] as string[],
    coveredStates: new Set<string>(),
    coveredTransitions: new Set<string>(),
    boundaryProblems: [] as string[],
    get snapshot() {
      return snapshot;
    },
    advance(lines: readonly JournalLine[]): number {
      for (; read < lines.length; read++) {
        const line = lines[read]!;
        if (line.type === 'header') {
          snapshot = start({ maxIterations: line.maxIterations, entries: line.baseLeafId === null ? [] : sessionNow().path(line.baseLeafId) });
          for (const id of stateIds(snapshot.value)) mirror.coveredStates.add(id);
        }
        if (line.type !== 'input' || !snapshot) continue;
        for (const t of transitionsTaken(snapshot, parseEvent(line.input))) mirror.coveredTransitions.add(t);
        snapshot = stepTurn(snapshot, line.input).snapshot;
        const state = stateName(snapshot.value);
        for (const id of stateIds(snapshot.value)) mirror.coveredStates.add(id);
        mirror.inputCount += 1;
        mirror.inputTypes.push(line.input.type);
        mirror.states.push(state);
        if (state === 'steering' || state === 'idle') {
          for (const problem of unansweredCalls(snapshot.context.view)) mirror.boundaryProblems.push(`after input ${mirror.inputCount} (${line.input.type}), ${problem}`);
        }
      }
      return mirror.inputCount;
    },
    /** A resumed process continues the same journal: keep what was read, read on from there. */
    restart(lines: readonly JournalLine[]) {
      read = Math.min(read, lines.length);
    },
  };
  return mirror;
}
