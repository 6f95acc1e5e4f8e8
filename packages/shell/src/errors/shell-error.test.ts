import { describe, expect, it } from 'vitest';
import { AgentBusyError } from './agent-busy-error.js';
import { ApprovalError } from './approval-error.js';
import { ShellError } from './shell-error.js';

describe('the errors of @tiller/shell', () => {
  it('share one base with a code, recognised across two installed copies of the package', async () => {
    // Second copies of the modules, as a second install of the package would load.
    const copy = Date.now();
    const other = (await import(/* @vite-ignore */ `./approval-error.js?copy=${copy}`)) as typeof import('./approval-error.js');
    expect(other.ApprovalError).not.toBe(ApprovalError);
    const foreign = new other.ApprovalError('agent.approve: no tool call is waiting for approval');
    expect(foreign instanceof ApprovalError).toBe(false);
    expect(ApprovalError.isInstance(foreign)).toBe(true);
    expect(ShellError.isInstance(foreign)).toBe(true);
    expect(AgentBusyError.isInstance(foreign)).toBe(false);
    expect(foreign).toMatchObject({ name: 'ApprovalError', code: 'invalid_approval' });
    expect(ShellError.isInstance(new Error('plain'))).toBe(false);
    expect(ShellError.isInstance({ code: 'agent_busy' })).toBe(false);
    expect(new AgentBusyError('busy', { cause: 'x' }).cause).toBe('x');
  });
});
