import type { ApprovalDecision, UserMessage } from '@tiller/core';

/**
 * What reaches a running turn from outside, in the order it arrived: a message for the model
 * (delivered at the next boundary, or when the turn would end) or decisions on parked calls.
 */
export type TurnMessage =
  | { kind: 'steer'; message: UserMessage; at: string }
  | { kind: 'follow_up'; message: UserMessage; at: string }
  | { kind: 'approval'; decisions: ApprovalDecision[]; at: string };
