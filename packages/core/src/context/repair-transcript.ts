import type { AssistantContentPart, AssistantMessage, Message, ToolCallPart, ToolResultMessage, UserMessage } from '../schema/message.js';

/**
 * One change `repairTranscript` made. `index` is the position, in the messages it was given, of
 * the message concerned (the tool result, or the assistant message that made the call).
 * - `orphaned_result`: a tool result with no call before it in its batch (the call was lost, or
 *   it answers a call already answered); it became a user note, content kept.
 * - `unanswered_call`: a tool call with no result before the next message or the end; an error
 *   result was added for it.
 * - `repeated_call`: a second tool call with the same id in one message; it was left out.
 * - `moved_message`: a message (a host's steer, say) that stood between a batch's calls and their
 *   results; it comes after the batch's results instead, and `toolCallId` names the first
 *   result that now comes before it. Providers want every result right after its call.
 */
export interface TranscriptRepair {
  kind: 'orphaned_result' | 'unanswered_call' | 'repeated_call' | 'moved_message';
  index: number;
  toolCallId: string;
  toolName: string;
}

export interface RepairedTranscript {
  /** The messages given, when nothing was wrong; otherwise a repaired copy. */
  messages: Message[];
  /** Empty when nothing was wrong. */
  repairs: TranscriptRepair[];
}

/** How a tool result whose call is missing reaches the model: this note, then its content. */
export const LOST_CALL_NOTE = '[A tool result whose call is missing from this conversation (the record of the call was lost).]';

/** The content of the error result that stands in for a result that is missing. */
export const LOST_RESULT_NOTE =
  'No result of this tool call was recorded (the record was lost, or the run stopped before the tool finished). Its outcome is unknown.';

export interface RepairOptions {
  /**
   * A batch still open at the end (the last assistant message's calls, followed by only some of
   * their results, or none): `settle` (default) answers the missing calls as lost, as a model
   * call needs; `leave` keeps it as it stands, for a view of a turn that may still be running it.
   * A batch that another message followed (a branch from the call, a steer) is settled either way.
   */
  openBatch?: 'settle' | 'leave';
}

const NO_REPAIRS: TranscriptRepair[] = [];

/**
 * Makes a transcript one a provider accepts, whatever a damaged session left: every tool call
 * answered by exactly one result, right after its message, and no result without its call.
 * Nothing is silently dropped: a lost call's result becomes a user note with its content, a lost
 * result becomes an error result that says so, and a message that came while a batch still
 * waited for results (a steer the host logged while tools ran) follows the batch's results.
 * Pure; a valid transcript costs one pass that allocates nothing and comes back as the same array.
 */
export function repairTranscript(messages: Message[], options: RepairOptions = {}): RepairedTranscript {
  const leaveOpen = options.openBatch === 'leave';
  if (isValidTranscript(messages, leaveOpen)) return { messages, repairs: NO_REPAIRS };
  // Sized for the usual case (as many messages out as in) rather than grown message by message:
  // a path of 100k messages would be copied over and over in the large-object space.
  const out: Message[] = new Array<Message>(messages.length);
  let length = 0;
  const put = (message: Message) => {
    out[length++] = message;
  };
  const repairs: TranscriptRepair[] = [];
  /**
   * The open batch: where its calls were made, which are answered, and the messages held until
   * its results are all in (`held`: those no result has passed yet, by their index; `followed`:
   * whether any was held, so the batch is no longer the transcript's open end).
   */
  let batch:
    | { index: number; calls: ToolCallPart[]; answered: string[]; notes: Message[] | undefined; held: number[] | undefined; followed: boolean }
    | undefined;

  const closeBatch = (atEnd: boolean) => {
    if (!batch) return;
    // Only a batch followed by nothing but its results is a turn that may still be running it.
    if (!(atEnd && leaveOpen && !batch.followed)) {
      for (const call of batch.calls) {
        if (batch.answered.includes(call.id)) continue;
        put(lostResult(call));
        repairs.push({ kind: 'unanswered_call', index: batch.index, toolCallId: call.id, toolName: call.name });
      }
    }
    // Notes and messages found inside the batch wait until its results are all in: nothing may split them.
    if (batch.notes) for (const note of batch.notes) put(note);
    batch = undefined;
  };

  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'toolResult') {
      if (batch && !batch.answered.includes(message.toolCallId) && batch.calls.some((c) => c.id === message.toolCallId)) {
        batch.answered.push(message.toolCallId);
        put(message);
        if (batch.held) {
          for (const index of batch.held) repairs.push({ kind: 'moved_message', index, toolCallId: message.toolCallId, toolName: message.toolName });
          batch.held = undefined;
        }
      } else {
        if (batch) (batch.notes ??= []).push(orphanNote(message));
        else put(orphanNote(message));
        repairs.push({ kind: 'orphaned_result', index: i, toolCallId: message.toolCallId, toolName: message.toolName });
      }
      continue;
    }
    if (message.role !== 'assistant' && batch && batch.answered.length < batch.calls.length) {
      // Its results may still come: the message waits for them rather than split the pair.
      (batch.notes ??= []).push(message);
      (batch.held ??= []).push(i);
      batch.followed = true;
      continue;
    }
    closeBatch(false);
    if (message.role !== 'assistant') {
      put(message);
      continue;
    }
    const calls: ToolCallPart[] = [];
    let repeated = false;
    for (const part of message.content) {
      if (part.type !== 'toolCall') continue;
      if (calls.some((c) => c.id === part.id)) {
        repeated = true;
        repairs.push({ kind: 'repeated_call', index: i, toolCallId: part.id, toolName: part.name });
      } else {
        calls.push(part);
      }
    }
    put(repeated ? withoutRepeatedCalls(message) : message);
    if (calls.length > 0) batch = { index: i, calls, answered: [], notes: undefined, held: undefined, followed: false };
  }
  closeBatch(true);
  out.length = length;
  return { messages: out, repairs };
}

/** The check alone: one pass, no allocation (batches are short, so their scans are too). */
function isValidTranscript(messages: readonly Message[], leaveOpen: boolean): boolean {
  // The open batch: the content of the message that made the calls, how many, how many answered.
  let calls: readonly AssistantContentPart[] = NO_PARTS;
  let expected = 0;
  let answered = 0;
  let batchStart = 0;
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i]!;
    if (message.role === 'toolResult') {
      // No open batch, one result too many, a result for another call, or a second one for a call.
      if (answered >= expected || !hasCall(calls, message.toolCallId)) return false;
      if (answered > 0 && answeredBetween(messages, batchStart, i, message.toolCallId)) return false;
      answered++;
      continue;
    }
    if (answered !== expected) return false;
    expected = 0;
    answered = 0;
    if (message.role === 'assistant') {
      expected = countDistinctCalls(message.content);
      if (expected < 0) return false;
      calls = message.content;
      batchStart = i + 1;
    }
  }
  return answered === expected || leaveOpen;
}

const NO_PARTS: readonly AssistantContentPart[] = [];

function hasCall(parts: readonly AssistantContentPart[], id: string): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type === 'toolCall' && part.id === id) return true;
  }
  return false;
}

function answeredBetween(messages: readonly Message[], from: number, to: number, id: string): boolean {
  for (let j = from; j < to; j++) if ((messages[j] as ToolResultMessage).toolCallId === id) return true;
  return false;
}

/** The number of tool calls among the parts; -1 when two share an id. */
function countDistinctCalls(parts: readonly AssistantContentPart[]): number {
  let count = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.type !== 'toolCall') continue;
    for (let j = 0; j < i; j++) {
      const earlier = parts[j]!;
      if (earlier.type === 'toolCall' && earlier.id === part.id) return -1;
    }
    count++;
  }
  return count;
}

function lostResult(call: ToolCallPart): ToolResultMessage {
  return { role: 'toolResult', toolCallId: call.id, toolName: call.name, content: [{ type: 'text', text: LOST_RESULT_NOTE }], isError: true };
}

function orphanNote(result: ToolResultMessage): UserMessage {
  const returned = result.isError ? 'returned an error' : 'returned';
  return {
    role: 'user',
    content: [{ type: 'text', text: `${LOST_CALL_NOTE} Tool ${result.toolName} (call ${result.toolCallId}) ${returned}:` }, ...result.content],
  };
}

function withoutRepeatedCalls(message: AssistantMessage): AssistantMessage {
  const seen = new Set<string>();
  const content = message.content.filter((part) => {
    if (part.type !== 'toolCall') return true;
    if (seen.has(part.id)) return false;
    seen.add(part.id);
    return true;
  });
  return { ...message, content };
}
