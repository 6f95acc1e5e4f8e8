import { TurnEvent, type MachineEvent } from './events.js';

/** Checks an input against the event schemas; one that fails becomes `event.invalid`, never a throw. */
export function parseEvent(input: unknown): MachineEvent {
  const parsed = TurnEvent.safeParse(input);
  if (parsed.success) return parsed.data;
  const record = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const claimedType = typeof record.type === 'string' ? record.type : undefined;
  return {
    type: 'event.invalid',
    claimedType,
    reason: parsed.error.issues.map((issue) => `${issue.path.join('.') || '(the input)'}: ${issue.message}`).join('; '),
    at: typeof record.at === 'string' && record.at.length > 0 ? record.at : undefined,
  };
}
