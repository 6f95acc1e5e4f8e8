import { z } from 'zod';
import { StopReason } from '../schema/message.js';
import { LlmFailure } from './events.js';

const ended = { turnId: z.string(), iterations: z.number().int().nonnegative() };

/** How a turn ended. `iterations` counts its completed tool rounds. */
export const TurnOutcome = z.discriminatedUnion('status', [
  z.object({ status: z.literal('completed'), stopReason: StopReason, ...ended }),
  z.object({ status: z.literal('max_iterations'), ...ended }),
  z.object({ status: z.literal('aborted'), reason: z.string(), ...ended }),
  z.object({ status: z.literal('failed'), reason: z.string(), error: LlmFailure.optional(), ...ended }),
]);
export type TurnOutcome = z.infer<typeof TurnOutcome>;
export type TurnStatus = TurnOutcome['status'];
