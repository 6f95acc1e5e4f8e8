import { createInterface } from 'node:readline';
import type { ToolCallPart } from '@tiller/core';
import { type Agent, AgentBrokenError } from '@tiller/shell';
import { type ClosedOutputWatch, OUTPUT_CLOSED } from '../cli/closed-output.js';
import type { Io } from '../cli/command.js';
import { ExitCode } from '../cli/errors.js';
import { describeCall, oneLine } from '../view/describe.js';
import { sendBeside } from './send-beside.js';

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
 * message while one does; a steering message that reached the agent only after the turn ended is
 * the next prompt (said, and only said when tiller is exiting, with its text). An approval
 * question takes the next line (y or yes allows). Ctrl-C
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
  // Steers sent and not yet answered: what comes after a turn waits for them, as one may come back dropped.
  let steering = 0;
  // Steering lines that came after the turn had ended: the user still means them.
  const dropped: string[] = [];

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

    const notSent = (line: string) => say(io.out.yellow(`» not sent: the turn ended before your steering message reached it, and tiller is exiting: ${line}`));

    /** Once the turn and the steers sent to it are over: the dropped lines as the next prompt, the end, or the prompt. */
    const afterTurn = () => {
      if (running || closing || steering > 0) return;
      const ending = stopped || endAfterTurn;
      const lines = dropped.splice(0);
      if (lines.length > 0 && !ending) {
        say(io.out.bold(`» the turn ended before your steering ${lines.length === 1 ? 'message reached it; sending it' : 'messages reached it; sending them'} as the next prompt`));
        startTurn(lines.join('\n'));
        return;
      }
      for (const line of lines) notSent(line);
      if (stopped) finish(ExitCode.failed);
      else if (endAfterTurn) finish(options.output.closed ? ExitCode.failed : ExitCode.ok);
      else rl.prompt();
    };

    const steer = (line: string) => {
      say(`${io.out.bold('» steering:')} ${line}`);
      steering += 1;
      agent
        .steer(line)
        .then(
          (result) => {
            if (result.delivered !== 'dropped') return;
            // Past a second Ctrl-C nothing comes after this turn.
            if (closing) notSent(line);
            else dropped.push(line);
          },
          (error: Error) => {
            // The agent stopped (its prompt's failure says why) or closed: the line cannot go anywhere now.
            const why = AgentBrokenError.isInstance(error) ? 'the agent stopped' : oneLine(error.message);
            say(io.err.red(`» not sent (${why}): ${line}`));
          },
        )
        .finally(() => {
          steering -= 1;
          afterTurn();
        });
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
        afterTurn();
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
        sendBeside(agent.abort('interrupted by the user (Ctrl-C)'), io);
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
      sendBeside(agent.abort(OUTPUT_CLOSED), io);
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
      if (running) steer(line);
      else startTurn(line);
    });
    rl.on('close', () => {
      // Ctrl-D: leave once the running turn is over; questions nobody can answer now are denied, so it can end.
      inputClosed = true;
      if (closing) return;
      for (const { call } of asking.splice(0)) denyUnanswered(call);
      if (running || steering > 0) endAfterTurn = true;
      else finish(ExitCode.ok);
    });

    if (options.initialPrompt) startTurn(options.initialPrompt);
    else rl.prompt();
  });
}
