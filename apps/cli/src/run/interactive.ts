import { createInterface } from 'node:readline';
import type { ToolCallPart } from '@tiller/core';
import { type Agent, AgentBrokenError } from '@tiller/shell';
import { type ClosedOutputWatch, OUTPUT_CLOSED } from '../cli/closed-output.js';
import type { Io } from '../cli/command.js';
import { ExitCode } from '../cli/errors.js';
import { describeCall, oneLine } from '../view/describe.js';

export interface InteractiveOptions {
  /** Run this first, as if typed. */
  initialPrompt?: string | undefined;
  /** Ask on the terminal before a write runs (false with --yes: the policy never asks). */
  askApprovals: boolean;
  /** Ends the current output line (the turn view keeps track of it). */
  finishLine(): void;
  /** stdout's reader going away ends the session, after the running turn is stopped. */
  output: ClosedOutputWatch;
  /** The line for a prompt's failure that has one of its own (the session or journal file could not be written). */
  stoppedLine?: ((error: unknown) => string | undefined) | undefined;
}

/**
 * The terminal session of `tiller run`: a typed line is a prompt when no turn runs and a steering
 * message while one does; an approval question takes the next line (y or yes allows). Ctrl-C
 * aborts a running turn, leaving the session valid; a second Ctrl-C (or one at the prompt, twice)
 * ends the program. Ctrl-D ends it after the running turn, denying the writes it has not answered.
 * Resolves with the exit code.
 */
export function interactive(agent: Agent, io: Io, options: InteractiveOptions): Promise<number> {
  const rl = createInterface({ input: io.stdin, output: io.stdout as NodeJS.WritableStream, terminal: true });
  rl.setPrompt(io.out.bold('> '));
  const say = (text: string) => {
    options.finishLine();
    io.stdout.write(`${text}\n`);
  };
  let running = false;
  let interrupts = 0;
  let closing = false;
  // Ctrl-D while a turn runs: leave once it is over.
  let endAfterTurn = false;
  // The agent stopped (its files could not be written): no prompt can run any more.
  let stopped = false;
  // No line can come any more: an approval question would wait for ever.
  let inputClosed = false;
  const asking: Array<{ call: ToolCallPart }> = [];

  return new Promise<number>((resolve) => {
    const finish = (code: number) => {
      if (closing) return;
      closing = true;
      stopInterrupt();
      rl.close();
      resolve(code);
    };

    const ask = () => {
      const next = asking[0];
      if (next) say(io.out.yellow(`allow ${describeCall(next.call)}? [y/N]`));
    };

    const startTurn = (prompt: string) => {
      running = true;
      interrupts = 0;
      agent.prompt(prompt).then(
        () => undefined,
        (error: Error) => {
          // A stopped agent fails every prompt after this one: say why once and leave, as a run without a terminal does.
          if (AgentBrokenError.isInstance(error)) stopped = true;
          say(io.err.red(options.stoppedLine?.(error) ?? `tiller run: ${oneLine(error.message)}`));
        },
      ).finally(() => {
        running = false;
        asking.length = 0;
        if (closing) return;
        if (stopped) finish(ExitCode.failed);
        else if (endAfterTurn) finish(options.output.closed ? ExitCode.failed : ExitCode.ok);
        else rl.prompt();
      });
    };

    const onInterrupt = () => {
      interrupts += 1;
      if (interrupts >= 2) {
        say(io.out.dim('exiting'));
        finish(ExitCode.interrupted);
        return;
      }
      if (running) {
        say(io.out.yellow('aborting the turn (Ctrl-C again to exit)'));
        void agent.abort('interrupted by the user (Ctrl-C)');
      } else {
        say(io.out.dim('(Ctrl-C again to exit, or Ctrl-D)'));
        rl.prompt();
      }
    };
    // A terminal in raw mode hands Ctrl-C to readline; otherwise it arrives as SIGINT.
    rl.on('SIGINT', onInterrupt);
    const stopInterrupt = io.onInterrupt(onInterrupt);
    // stdout piped to a reader that went away: stop the turn and leave once it is over (the session is then closed).
    options.output.whenClosed(() => {
      if (!running) return finish(ExitCode.failed);
      endAfterTurn = true;
      void agent.abort(OUTPUT_CLOSED);
    });

    const denyUnanswered = (call: ToolCallPart) => {
      agent.approve({ toolCallId: call.id, decision: 'deny', rationale: 'The input closed before the user answered.' });
      say(io.out.red(`denied ${describeCall(call)} (the input closed)`));
    };

    agent.subscribe((event) => {
      if (event.type !== 'approval.requested' || !options.askApprovals) return;
      if (inputClosed) {
        for (const call of event.calls) denyUnanswered(call);
        return;
      }
      for (const call of event.calls) asking.push({ call });
      ask();
    });

    rl.on('line', (raw) => {
      const line = raw.trim();
      if (asking.length > 0) {
        const { call } = asking.shift()!;
        const yes = /^(y|yes)$/i.test(line);
        agent.approve(yes ? { toolCallId: call.id, decision: 'allow' } : { toolCallId: call.id, decision: 'deny', rationale: 'The user said no.' });
        say(yes ? io.out.green(`allowed ${describeCall(call)}`) : io.out.red(`denied ${describeCall(call)}`));
        ask();
        return;
      }
      if (!line) {
        if (!running) rl.prompt();
        return;
      }
      interrupts = 0;
      if (running) {
        say(`${io.out.bold('» steering:')} ${line}`);
        void agent.steer(line);
      } else startTurn(line);
    });
    rl.on('close', () => {
      // Ctrl-D: leave once the running turn is over; questions nobody can answer now are denied, so it can end.
      inputClosed = true;
      if (closing) return;
      for (const { call } of asking.splice(0)) denyUnanswered(call);
      if (running) endAfterTurn = true;
      else finish(ExitCode.ok);
    });

    if (options.initialPrompt) startTurn(options.initialPrompt);
    else rl.prompt();
  });
}
