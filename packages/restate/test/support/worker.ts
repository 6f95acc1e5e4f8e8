/**
 * A worker process for the durable tests: serves the test agent on PORT and logs what its tools
 * and its model do to LOG_FILE, one line each (`start <callId> <pid>`, `end <callId> <pid>`,
 * `model <round> <pid>`), so the test can count what ran where after it kills a worker.
 */
import { appendFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { serve } from '../../src/index.js';
import { testAgent } from './test-agent.js';

const logFile = process.env.LOG_FILE;
if (!logFile) throw new Error('worker: LOG_FILE is required');
const log = (line: string) => appendFileSync(logFile, `${line} ${process.pid} ${Date.now()}\n`);

const worker = await serve({ ...testAgent(log, sleep), port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${worker.port}\n`);
