import { formatPath, pathName, type AgentPath } from '../path-step.js';
import type { BrokenInvariant } from './invariants.js';

/** A run's report: the path, what broke (or that nothing did), and the call that replays it. */
export function describeRun(path: AgentPath, broken: readonly BrokenInvariant[]): string {
  // What the steps take, not the name: a script shrunk by hand keeps the name of the longer one.
  const taken = pathName(path.steps);
  const lines = [`path: ${taken}`, ...(path.name === taken ? [] : [`name: ${path.name}`])];
  if (broken.length === 0) lines.push('every invariant held');
  else for (const b of broken) lines.push(`broken: ${b.invariant}: ${b.message}`);
  lines.push('replay it with:', `  await runPath(${formatPath(path).replaceAll('\n', '\n  ')}, makeAgent)`);
  return lines.join('\n');
}
