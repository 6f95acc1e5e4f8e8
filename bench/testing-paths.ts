/**
 * How long @tiller/testing takes to generate a few hundred paths through the turn machine and run
 * each through a real agent (the shell, a session log, a journal, crashes and resumes):
 * `pnpm tsx bench/testing-paths.ts`. Prints the path count and the time for each phase.
 *
 * Measured on a shared 2-core machine under load (load average 10): 457 paths generated in
 * 2.0 s, all run in 10.7 s (23 ms a path, crashes and resumes included), 0 failed, 7/7 states
 * and 13/13 reachable transitions covered. Seconds, not minutes.
 */
import { defineTool, type PolicyDecision } from '@tiller/shell';
import { agentPaths, coverage, runPath, type PathRun } from '@tiller/testing';
import { z } from 'zod';

const tools = () => [
  defineTool({ name: 'read_note', description: 'reads', input: z.object({ title: z.string().min(1).max(20) }), idempotent: true, execute: ({ title }) => `note ${title}` }),
  defineTool({ name: 'write_note', description: 'writes', input: z.object({ title: z.string().min(1).max(20), line: z.string().max(40) }), execute: () => 'written' }),
  defineTool({ name: 'delete_note', description: 'deletes', input: z.object({ title: z.string() }), execute: () => 'deleted' }),
];
const policy = (call: { name: string }): PolicyDecision =>
  call.name === 'write_note' ? { decision: 'ask' } : call.name === 'delete_note' ? { decision: 'deny', rationale: 'never' } : { decision: 'allow' };

const t0 = performance.now();
const paths = agentPaths({ tools: tools(), policy: { write_note: 'ask', delete_note: 'deny' } });
const generated = performance.now() - t0;
const runs: PathRun[] = [];
const t1 = performance.now();
for (const path of paths) runs.push(await runPath(path, (world) => ({ tools: world.tools(tools()), policy })));
const ran = performance.now() - t1;
const failed = runs.filter((r) => !r.passed).length;
console.log(`paths ${paths.length}: generated in ${(generated / 1000).toFixed(2)} s, run in ${(ran / 1000).toFixed(2)} s (${(ran / paths.length).toFixed(1)} ms a path), ${failed} failed`);
console.log(coverage(runs).toString());
