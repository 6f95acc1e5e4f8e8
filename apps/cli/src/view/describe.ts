import type { Message, ToolCallPart, TurnOutcome } from '@tiller/core';
import type { ToolRefusalReason } from '@tiller/shell';

const number = new Intl.NumberFormat('en-US');
export const formatTokens = (n: number) => number.format(Math.round(n));

/** A state value as a dotted path: `idle`, `tools.running`. */
export function statePath(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>)
      .map(([key, child]) => `${key}.${statePath(child)}`)
      .join(',');
  }
  return String(value);
}

/** `0.4 ms`, `12 ms`, `3.2 s`. */
export function formatDuration(ms: number): string {
  if (ms < 10) return `${ms.toFixed(1)} ms`;
  if (ms < 10_000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

export function shorten(text: string, max = 72): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** A tool call in a few words: the path for file tools, the arguments as JSON otherwise. */
export function describeCall(call: Pick<ToolCallPart, 'name' | 'args'>): string {
  const args = (call.args ?? {}) as Record<string, unknown>;
  if (typeof args.path === 'string') return `${call.name} ${args.path}`;
  const json = JSON.stringify(args);
  return json === '{}' ? call.name : `${call.name} ${shorten(json, 60)}`;
}

/** Why a tool call did not run, in a few words for its ✗ line (the model reads the whole message). */
export function describeRefusal(reason: ToolRefusalReason): string {
  switch (reason) {
    case 'unknown_tool':
      return 'not run: unknown tool';
    case 'unreadable_arguments':
      return 'not run: its arguments are not a JSON object';
    case 'invalid_arguments':
      return 'not run: its arguments do not match its schema';
    case 'schema_failed':
      return 'not run: its input schema failed';
    case 'denied':
      return 'denied';
    default: {
      const unknown: never = reason;
      return `not run (${String(unknown)})`;
    }
  }
}

/** The first text of a message, for one-line listings. */
export function messageText(message: Message): string {
  if (typeof message.content === 'string') return message.content;
  for (const part of message.content as Array<{ type: string; text?: string; name?: string; args?: unknown }>) {
    if (part.type === 'text' && part.text) return part.text;
    if (part.type === 'toolCall') return `→ ${describeCall(part as ToolCallPart)}`;
  }
  return '';
}

/** Text from a provider or a tool, said on one line: an error line is one line, and a terminal's columns stay aligned. */
export const oneLine = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean)
    .join(' ');

export function describeOutcome(outcome: TurnOutcome): string {
  switch (outcome.status) {
    case 'completed':
      return `completed after ${outcome.iterations} tool round${outcome.iterations === 1 ? '' : 's'}`;
    case 'max_iterations':
      return `stopped at the iteration limit (${outcome.iterations} tool rounds)`;
    case 'aborted':
      return `aborted: ${oneLine(outcome.reason)}`;
    case 'failed':
      return `failed: ${oneLine(outcome.reason)}`;
    default: {
      const unknown: never = outcome;
      return `ended: ${JSON.stringify(unknown)}`;
    }
  }
}

/** `[█████░░░░░] 4,120 / 8,000 tokens (52%)` */
export function gauge(tokens: number, window: number, width = 20): string {
  const share = Math.max(0, Math.min(1, tokens / window));
  const filled = Math.round(share * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${formatTokens(tokens)} / ${formatTokens(window)} tokens (${Math.round(share * 100)}%)`;
}
