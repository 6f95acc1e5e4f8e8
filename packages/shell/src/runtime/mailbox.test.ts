import { describe, expect, it } from 'vitest';
import { createMailbox } from './mailbox.js';

describe('createMailbox', () => {
  it('handles letters one at a time, in order, after the poster has returned', async () => {
    const log: string[] = [];
    const mailbox = createMailbox(async (letter: string) => {
      log.push(`start ${letter}`);
      await new Promise((r) => setTimeout(r, 1));
      log.push(`end ${letter}`);
    });
    mailbox.post('a');
    mailbox.post('b');
    log.push('posted');
    await mailbox.drained();
    expect(log).toEqual(['posted', 'start a', 'end a', 'start b', 'end b']);
  });

  it('keeps handling after a drain of letters that needed no work', async () => {
    const handled: number[] = [];
    // A handler that finishes at once, as for an answer nobody waits for any more.
    const mailbox = createMailbox(async (n: number) => void handled.push(n));
    mailbox.post(1);
    await mailbox.drained();
    mailbox.post(2);
    mailbox.post(3);
    await mailbox.drained();
    expect(handled).toEqual([1, 2, 3]);
  });

  it('takes letters posted while it handles one', async () => {
    const handled: number[] = [];
    const mailbox = createMailbox(async (n: number) => {
      handled.push(n);
      if (n < 3) mailbox.post(n + 1);
    });
    mailbox.post(1);
    await mailbox.drained();
    expect(handled).toEqual([1, 2, 3]);
  });
});
