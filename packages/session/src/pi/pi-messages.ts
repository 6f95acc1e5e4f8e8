import {
  branchSummaryMessage,
  compactionSummaryMessage,
  Usage,
  type AssistantContentPart,
  type Message,
  type UserContentPart,
} from '@tiller/core';
import { ownValue } from '../own-value.js';
import { isRecord, rest, type PiRecord, type PiStash } from './pi-format.js';

/**
 * A pi message as Tiller holds it: `user`, `assistant` and `toolResult` become Tiller messages
 * (pi-only fields stashed); any other role (bashExecution, custom, the summaries) has no Tiller
 * counterpart and becomes a `custom` entry that carries the message the model sees.
 */
export type ImportedMessage =
  | { kind: 'message'; message: Message; stash: PiStash | undefined }
  | { kind: 'foreign'; modelMessage: Message | undefined };

const PART_KEYS: Record<string, readonly string[]> = {
  text: ['type', 'text'],
  image: ['type', 'data', 'mimeType'],
  thinking: ['type', 'thinking', 'thinkingSignature', 'redacted'],
  toolCall: ['type', 'id', 'name', 'arguments', 'unparsedArgs'],
};

const MESSAGE_KEYS: Record<string, readonly string[]> = {
  user: ['role', 'content'],
  assistant: ['role', 'content', 'usage', 'stopReason', 'errorMessage'],
  toolResult: ['role', 'toolCallId', 'toolName', 'content', 'isError', 'details'],
};

export function piMessageToTiller(m: PiRecord): ImportedMessage {
  const role = m.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'toolResult') {
    return { kind: 'foreign', modelMessage: foreignModelMessage(m) };
  }
  const stash: PiStash = {};
  const messageRest = rest(m, MESSAGE_KEYS[role]!);
  if (messageRest) stash.message = messageRest;
  const parts = importParts(m.content, stash);
  let message: Message;
  switch (role) {
    case 'user':
      message = { role, content: typeof m.content === 'string' ? m.content : (parts as UserContentPart[]) };
      break;
    case 'assistant': {
      const assistant: Message = { role, content: parts as AssistantContentPart[] };
      const usage = importUsage(m.usage, stash);
      if (usage) assistant.usage = usage;
      if (m.stopReason !== undefined) assistant.stopReason = m.stopReason as never;
      const model = typeof m.model === 'string' ? m.model : undefined;
      if (model) assistant.model = typeof m.provider === 'string' && m.provider ? `${m.provider}/${model}` : model;
      if (m.errorMessage !== undefined) assistant.errorMessage = m.errorMessage as string;
      message = assistant;
      break;
    }
    case 'toolResult':
      message = {
        role,
        toolCallId: m.toolCallId as string,
        toolName: m.toolName as string,
        content: parts as never,
        isError: m.isError as boolean,
      };
      if ('details' in m) message.details = m.details;
      break;
  }
  return { kind: 'message', message, stash: Object.keys(stash).length > 0 ? stash : undefined };
}

function importParts(content: unknown, stash: PiStash): unknown[] {
  if (!Array.isArray(content)) return [];
  const extras: (PiRecord | null)[] = [];
  let anyExtra = false;
  const parts = content.map((part: unknown) => {
    if (!isRecord(part)) {
      extras.push(null);
      return part;
    }
    const extra = rest(part, ownValue(PART_KEYS, part.type) ?? ['type']);
    extras.push(extra ?? null);
    if (extra) anyExtra = true;
    switch (part.type) {
      case 'thinking': {
        const out: PiRecord = { type: 'thinking', thinking: part.thinking };
        if (part.thinkingSignature !== undefined) out.signature = part.thinkingSignature;
        if (part.redacted !== undefined) out.redacted = part.redacted;
        return out;
      }
      case 'toolCall':
        return { type: 'toolCall', id: part.id, name: part.name, args: part.arguments, ...(typeof part.unparsedArgs === 'string' ? { unparsedArgs: part.unparsedArgs } : {}) };
      case 'text':
        return { type: 'text', text: part.text };
      case 'image':
        return { type: 'image', data: part.data, mimeType: part.mimeType };
      default:
        // Left as it is: validation of the entry reports the unknown part type with its path.
        return part;
    }
  });
  if (anyExtra) stash.parts = extras;
  return parts;
}

const USAGE_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite', 'totalTokens', 'cost'];
const COST_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite', 'total'];

/** Tiller's usage for pi's; pi's exact object is stashed when Tiller's would differ from it. */
function importUsage(usage: unknown, stash: PiStash): Usage | undefined {
  if (usage === undefined) return undefined;
  // Older pi versions wrote no totalTokens; pi then counts the four parts, and so does Tiller.
  const filled =
    isRecord(usage) && usage.totalTokens === undefined
      ? { ...usage, totalTokens: [usage.input, usage.output, usage.cacheRead, usage.cacheWrite].reduce((a: number, b) => a + (typeof b === 'number' ? b : 0), 0) }
      : usage;
  const parsed = Usage.safeParse(filled);
  const exact =
    parsed.success &&
    filled === usage &&
    isRecord(usage) &&
    !rest(usage, USAGE_KEYS) &&
    (usage.cost === undefined || (isRecord(usage.cost) && !rest(usage.cost, COST_KEYS)));
  if (!exact) stash.usage = usage;
  return parsed.success ? parsed.data : undefined;
}

/**
 * A field pi holds as text, as text: an object or a list as its JSON. `String` of an object such
 * as `{"toString": 1}`, which a file can hold, throws a bare TypeError (and of any other object
 * says `[object Object]`, which tells the model nothing).
 */
function piText(value: unknown): string {
  return typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
}

/** The text pi sends the model for a shell command the user ran with `!`. */
export function bashExecutionText(m: PiRecord): string {
  const lines = [`Ran \`${piText(m.command)}\``];
  lines.push(m.output ? `\`\`\`\n${piText(m.output)}\n\`\`\`` : '(no output)');
  let text = lines.join('\n');
  const exitCode = m.exitCode;
  if (m.cancelled) text += '\n\n(command cancelled)';
  else if (typeof exitCode === 'number' && exitCode !== 0) text += `\n\nCommand exited with code ${exitCode}`;
  if (m.truncated && m.fullOutputPath) text += `\n\n[Output truncated. Full output: ${piText(m.fullOutputPath)}]`;
  return text;
}

/** What the model sees of a message whose role only pi has; undefined when it sees nothing. */
function foreignModelMessage(m: PiRecord): Message | undefined {
  switch (m.role) {
    case 'bashExecution':
      return m.excludeFromContext ? undefined : { role: 'user', content: [{ type: 'text', text: bashExecutionText(m) }] };
    case 'custom':
    case 'hookMessage':
      return { role: 'user', content: userContent(m.content) };
    case 'branchSummary':
      return branchSummaryMessage(piText(m.summary ?? ''));
    case 'compactionSummary':
      return compactionSummaryMessage(piText(m.summary ?? ''));
    default:
      return undefined;
  }
}

/** pi's custom content (a string or text and image parts) as the parts of a user message. */
export function userContent(content: unknown): UserContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  const stash: PiStash = {};
  return importParts(content, stash) as UserContentPart[];
}

/** pi's message for a Tiller message, with whatever the import stashed put back. */
export function tillerMessageToPi(message: Message, stash: PiStash | undefined, at: string): PiRecord {
  const timestamp = Date.parse(at);
  switch (message.role) {
    case 'user':
      return {
        role: 'user',
        content: typeof message.content === 'string' ? message.content : exportParts(message.content, stash),
        timestamp,
        ...stash?.message,
      };
    case 'assistant': {
      const [provider, model] = splitModel(message.model);
      const out: PiRecord = {
        role: 'assistant',
        content: exportParts(message.content, stash),
        api: 'unknown',
        provider,
        model,
        usage: stash?.usage ?? message.usage ?? zeroUsage(),
        stopReason: message.stopReason ?? 'stop',
      };
      if (message.errorMessage !== undefined) out.errorMessage = message.errorMessage;
      return { ...out, timestamp, ...stash?.message };
    }
    case 'toolResult': {
      const out: PiRecord = {
        role: 'toolResult',
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        content: exportParts(message.content, stash),
      };
      if ('details' in message) out.details = message.details;
      return { ...out, isError: message.isError, timestamp, ...stash?.message };
    }
    default: {
      const unknownMessage: never = message;
      throw new TypeError(`unknown message role: ${JSON.stringify(unknownMessage)}`);
    }
  }
}

function exportParts(parts: readonly unknown[], stash: PiStash | undefined): unknown[] {
  return parts.map((part, index) => {
    const extra = stash?.parts?.[index] ?? undefined;
    const p = part as PiRecord;
    let out: PiRecord;
    switch (p.type) {
      case 'thinking':
        out = { type: 'thinking', thinking: p.thinking };
        if (p.signature !== undefined) out.thinkingSignature = p.signature;
        if (p.redacted !== undefined) out.redacted = p.redacted;
        break;
      case 'toolCall':
        // pi has no such field; it keeps it in the file, and a Tiller import reads it back.
        out = { type: 'toolCall', id: p.id, name: p.name, arguments: p.args, ...(p.unparsedArgs !== undefined ? { unparsedArgs: p.unparsedArgs } : {}) };
        break;
      case 'file':
        // pi has no file parts; the model saw a file, pi can only say so in text.
        out = { type: 'text', text: `[file ${String(p.name ?? '')} (${String(p.mimeType)})]` };
        break;
      default:
        out = { ...p };
    }
    return extra ? { ...out, ...extra } : out;
  });
}

/** `provider/model-id` into its two halves; a bare id has an unknown provider. */
function splitModel(model: string | undefined): [string, string] {
  if (!model) return ['unknown', 'unknown'];
  const slash = model.indexOf('/');
  return slash > 0 ? [model.slice(0, slash), model.slice(slash + 1)] : ['unknown', model];
}

function zeroUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}
