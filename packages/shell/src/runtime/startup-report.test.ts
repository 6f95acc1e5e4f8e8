import { createSessionLog, MemoryStore, type ReadWarning } from '@tiller/session';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/agent-event.js';
import { StartupReport } from './startup-report.js';

const warning: ReadWarning = { kind: 'torn_line', file: 's.jsonl', line: 7, reason: 'torn', message: 's.jsonl:7: the last line is torn' };

function logWithWarnings(warnings: ReadWarning[]) {
  return createSessionLog(Object.assign(new MemoryStore(), { warnings }));
}

describe('StartupReport', () => {
  it("holds failures until it is told, then tells the log's warnings first and each failure after, once", () => {
    const told: AgentEvent[] = [];
    const report = new StartupReport(logWithWarnings([warning]), (event) => told.push(event));
    report.failed({ type: 'shell.error', where: 'inspector', message: 'the inspector is gone', at: 't1' });
    expect(told).toEqual([]);
    report.tellOnce();
    expect(told.map((e) => e.type)).toEqual(['session.warning', 'shell.error']);
    expect(told[0]).toMatchObject({ type: 'session.warning', warning });
    report.tellOnce();
    expect(told).toHaveLength(2);
  });

  it('tells a failure at once after the report was told', () => {
    const told: AgentEvent[] = [];
    const report = new StartupReport(createSessionLog(new MemoryStore()), (event) => told.push(event));
    report.tellOnce();
    expect(told).toEqual([]);
    report.failed({ type: 'shell.error', where: 'inspector', message: 'late', at: 't2' });
    expect(told).toEqual([{ type: 'shell.error', where: 'inspector', message: 'late', at: 't2' }]);
  });
});
