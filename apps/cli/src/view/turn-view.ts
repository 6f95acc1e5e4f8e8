import type { ToolCallPart } from '@tiller/core';
import type { AgentEvent, AgentListener } from '@tiller/shell';
import { createSpinner } from '../cli/spinner.js';
import type { OutStream, Style } from '../cli/style.js';
import { describeCall, describeOutcome, describeRefusal, formatDuration, formatTokens, gauge, shorten, statePath } from './describe.js';

export interface TurnViewOptions {
  stream: OutStream;
  style: Style;
  /** The machine's current state value (`agent.snapshot.value`), shown when it changes. */
  state: () => unknown;
  /** The model's context window, for the gauge; no gauge without one. */
  window?: number | undefined;
  /** Show each change of the machine's state (the demo does; `run` does not by default). */
  showStates?: boolean;
}

/**
 * Prints a turn as it flows: the machine's state, each model call (a spinner on a terminal), the
 * streamed text, tool calls with their durations, compactions with the tokens before and after,
 * and a context gauge after every model call.
 */
export function turnView(options: TurnViewOptions): AgentListener & { finish(): void } {
  const { stream, style } = options;
  const spinner = createSpinner(stream, style);
  const calls = new Map<string, ToolCallPart>();
  let atLineStart = true;
  let lastState = '';
  let modelCalls = 0;
  let streaming: 'text' | 'thinking' | undefined;

  const line = (text: string) => {
    spinner.stop();
    if (!atLineStart) stream.write('\n');
    stream.write(`${text}\n`);
    atLineStart = true;
    streaming = undefined;
  };
  const endLine = () => {
    spinner.stop();
    if (!atLineStart) stream.write('\n');
    atLineStart = true;
    streaming = undefined;
  };
  const write = (text: string, kind: 'text' | 'thinking') => {
    spinner.stop();
    if (streaming !== kind && !atLineStart) stream.write('\n');
    if (streaming !== kind && kind === 'thinking') stream.write(style.dim('thinking: '));
    stream.write(kind === 'thinking' ? style.dim(text) : text);
    streaming = kind;
    atLineStart = text.endsWith('\n');
  };
  const showState = () => {
    if (!options.showStates) return;
    const now = statePath(options.state());
    if (now === lastState) return;
    lastState = now;
    line(style.magenta(`◆ ${now}`));
  };

  const listener = (event: AgentEvent) => {
    switch (event.type) {
      case 'turn.started':
        modelCalls = 0;
        showState();
        break;
      case 'llm.started':
        modelCalls += 1;
        showState();
        spinner.start(style.dim(`model call ${modelCalls}${event.attempt > 1 ? ` (attempt ${event.attempt})` : ''}…`));
        break;
      case 'text.delta':
        write(event.delta, 'text');
        break;
      case 'thinking.delta':
        write(event.delta, 'thinking');
        break;
      case 'toolcall.delta':
        break;
      case 'llm.finished': {
        spinner.stop();
        const usage = event.usage;
        if (usage && options.window) {
          const tokens = usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
          line(style.dim(`context ${gauge(tokens, options.window)}`));
        } else endLine();
        break;
      }
      case 'llm.retry':
        line(style.yellow(`! model call failed (${event.error.kind}: ${shorten(event.error.message, 60)}); retrying in ${event.delayMs} ms`));
        break;
      case 'tools.started':
        for (const call of event.calls) calls.set(call.id, call);
        showState();
        break;
      case 'tool.started': {
        const call = calls.get(event.toolCallId);
        spinner.start(style.dim(`running ${call ? describeCall(call) : event.toolName}…`), { transient: true });
        break;
      }
      case 'tool.finished': {
        const call = calls.get(event.toolCallId);
        const mark = event.isError ? style.red('✗') : style.green('✓');
        line(`${mark} ${call ? describeCall(call) : event.toolName}  ${style.dim(formatDuration(event.durationMs))}`);
        break;
      }
      case 'tool.refused': {
        // Refused before it ran (no tool.started): the same ✗ as a failed call, with why instead of a duration.
        const call = calls.get(event.toolCallId);
        line(`${style.red('✗')} ${call ? describeCall(call) : event.toolName}  ${style.dim(describeRefusal(event.reason))}`);
        break;
      }
      case 'tool.interrupted':
        line(style.yellow(`! ${event.toolName} was interrupted by a crash; ${event.rerun ? 'running it again (idempotent)' : 'not run again'}`));
        break;
      case 'tools.finished':
        break;
      case 'approval.requested':
        showState();
        line(style.yellow(`? ${event.calls.map(describeCall).join(', ')} asks for approval`));
        break;
      case 'compaction.started':
        showState();
        spinner.start(style.dim(`compaction check (${event.midRound ? 'mid-round' : 'turn start'}, ${formatTokens(event.tokensBefore)} tokens)…`), { transient: true });
        break;
      case 'compaction.finished': {
        spinner.stop();
        const meta = event.meta as { compacted: boolean; strategy?: string; tokensBefore?: number; tokensAfter?: number; droppedEntryIds?: string[]; clearedEntryIds?: string[]; midRound?: boolean; error?: string };
        if (meta.compacted) {
          const dropped = meta.droppedEntryIds?.length ?? 0;
          const cleared = meta.clearedEntryIds?.length ?? 0;
          const what = [dropped ? `${dropped} entries left the context` : '', cleared ? `${cleared} tool results cleared` : ''].filter(Boolean).join(', ');
          line(
            style.cyan(
              `⇣ compacted${meta.midRound ? ' mid-round' : ''} (${meta.strategy}): ${formatTokens(meta.tokensBefore ?? 0)} → ${formatTokens(meta.tokensAfter ?? 0)} tokens${what ? `; ${what}` : ''}`,
            ),
          );
          if (options.window && meta.tokensAfter !== undefined) line(style.dim(`context ${gauge(meta.tokensAfter, options.window)}`));
        } else if (meta.error) line(style.yellow(`! compaction failed: ${meta.error}`));
        break;
      }
      case 'messages.delivered':
        for (const delivery of event.deliveries) line(style.cyan(`↳ ${delivery.kind === 'steer' ? 'steering message' : 'follow-up'} joined the context (${delivery.boundary})`));
        break;
      case 'message.added':
        break;
      case 'turn.ended':
        lastState = '';
        line(`${event.outcome.status === 'completed' ? style.green('●') : style.red('●')} turn ${describeOutcome(event.outcome)}`);
        break;
      case 'event.ignored':
        // A steer that arrived as the turn ended, say: the user should know it was not delivered.
        line(style.dim(`(${event.note.eventType} not applied: ${event.note.reason})`));
        break;
      case 'shell.error':
        line(style.red(`! ${event.where}: ${event.message}`));
        break;
      case 'session.warning':
      case 'journal.warning':
        line(style.yellow(`! ${event.warning.message}`));
        break;
      default: {
        const unknown: never = event;
        line(style.dim(`(event ${(unknown as { type: string }).type})`));
      }
    }
  };
  return Object.assign(listener, {
    finish: endLine,
  });
}

/** `--mode json`: every agent event as one JSON line. */
export function jsonView(stream: OutStream): AgentListener {
  return (event) => {
    stream.write(`${JSON.stringify(event)}\n`);
  };
}
