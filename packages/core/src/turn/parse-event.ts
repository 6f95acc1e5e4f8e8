import { z } from 'zod';
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
    reason: z.prettifyError(parsed.error).replaceAll('\n', '; '),
    at: typeof record.at === 'string' && record.at.length > 0 ? record.at : undefined,
  };
}
