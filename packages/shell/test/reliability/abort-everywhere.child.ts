// Runs one abort scenario in a process of its own, prints its report as one JSON line, and then
// only returns: the process must exit by itself. If it does not, something the agent started (a
// timer, a socket, a file handle) was left open. Usage: node --import tsx abort-everywhere.child.ts
// <point> [baseURL]; with a base URL, a line on stdin says the server got the first request.
import { createInterface } from 'node:readline';
import { ABORT_POINTS, type AbortPoint, runAbortScenario, type ScenarioServer } from './abort-everywhere.scenarios.js';

const [point, baseURL] = process.argv.slice(2);

function serverOf(url: string): ScenarioServer {
  const lines = createInterface({ input: process.stdin });
  const arrived = new Promise<void>((resolve) => lines.once('line', () => resolve()));
  // Nothing more is read: stdin is let go of, and the parent closes its end.
  void arrived.then(() => lines.close());
  return { baseURL: url, requestArrived: () => arrived };
}

if (!ABORT_POINTS.includes(point as AbortPoint)) {
  process.stderr.write(`abort-everywhere.child.ts: unknown abort point ${JSON.stringify(point)}; expected one of: ${ABORT_POINTS.join(', ')}\n`);
  process.exitCode = 2;
} else {
  runAbortScenario(point as AbortPoint, baseURL === undefined ? undefined : serverOf(baseURL)).then(
    (report) => process.stdout.write(`${JSON.stringify(report)}\n`),
    (error: unknown) => {
      process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
