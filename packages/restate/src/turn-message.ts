import { ApprovalDecision, UserMessage } from '@tiller/core';
import { z } from 'zod';

const at = z.string().min(1);

/**
 * What reaches a running turn from outside, in the order it arrived: a message for the model
 * (delivered at the next boundary, or when the turn would end) or decisions on parked calls.
 * The inbox checks what is posted against it: anyone who reaches the ingress can post.
 */
export const TurnMessage = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('steer'), message: UserMessage, at }),
  z.object({ kind: z.literal('follow_up'), message: UserMessage, at }),
  z.object({ kind: z.literal('approval'), decisions: z.array(ApprovalDecision), at }),
]);
export type TurnMessage = z.infer<typeof TurnMessage>;
