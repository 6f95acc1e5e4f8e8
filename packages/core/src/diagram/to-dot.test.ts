import { describe, expect, it } from 'vitest';
import { turnMachine } from '../turn/machine.js';
import { machineGraph } from './machine-graph.js';
import { toDot } from './to-dot.js';

describe('toDot', () => {
  const dot = toDot(turnMachine);
  const graph = machineGraph(turnMachine);

  it('gives every state of the turn machine a node (or a cluster) with a stable id', () => {
    for (const id of ['idle', 'steering', 'calling', 'tools', 'tools.running', 'tools.awaitingApproval']) {
      expect(dot).toContain(`id="state:${id}"`);
    }
  });

  it('draws every transition that changes state, with its id, event and guard', () => {
    const moving = graph.transitions.filter((t) => t.targetId !== null);
    expect(moving.length).toBeGreaterThan(10);
    for (const t of moving) expect(dot).toContain(`id="${t.id}"`);
    expect(dot).toMatch(/"calling" -> "tools.running" \[id="edge:calling:llm.done:0", label="llm.done \[tool_round\]", lhead="cluster_tools"\]/);
    expect(dot).toContain('"tools.running" -> "steering" [id="edge:tools.running:tools.done:1", label="tools.done [answersPending]"]');
  });

  it('names each transition id once, so a page can find it', () => {
    const ids = graph.transitions.filter((t) => t.targetId !== null).map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('lists the inputs that stay in a state in its tooltip', () => {
    expect(dot).toMatch(/"idle" \[id="state:idle", label="idle", tooltip="stays on: [^"]*steer/);
  });
});
