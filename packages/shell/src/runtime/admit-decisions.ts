import { ApprovalDecision } from '@tiller/core';
import { z } from 'zod';

/** A batch parked for approval, as far as the rules for deciding it go. */
export interface ParkedDecisions {
  /** The ids of the calls the batch asked about. */
  waiting: readonly string[];
  /** The decisions it has taken so far, by call id. */
  decided: ReadonlyMap<string, ApprovalDecision>;
}

/** A decision the batch does not take, and why, in words that name the call (or the list entry). */
export type DecisionRefusal =
  | { kind: 'invalid'; index: number; message: string }
  | { kind: 'none_waiting'; message: string }
  | { kind: 'not_waiting'; index: number; toolCallId: string; message: string }
  | { kind: 'changed'; index: number; toolCallId: string; earlier: ApprovalDecision; message: string }
  | { kind: 'twice'; index: number; toolCallId: string; first: number; message: string };

/** What a list of decisions does to a parked batch. */
export interface AdmittedDecisions {
  /** The decisions new to the batch, in list order: one a call, none for a call decided before. */
  admitted: ApprovalDecision[];
  /** One a refused entry of the list, in list order; `none_waiting` last when nothing is parked. */
  refused: DecisionRefusal[];
}

/**
 * The rules for deciding a parked batch, for the shell's `approve()` (which throws a refusal) and
 * for a durable engine's turn (which notes each and takes the rest): an entry must be a decision,
 * for a call the batch asked about, and a decision is final. The same decision again, or twice in
 * one list, changes nothing and is neither admitted nor refused. With nothing parked (`null`) no
 * decision is admitted, and the refusals still say which entries are no decision.
 */
export function admitDecisions(parked: ParkedDecisions | null, decisions: readonly unknown[]): AdmittedDecisions {
  const refused: DecisionRefusal[] = [];
  const waiting = new Set(parked?.waiting);
  /** The decisions this list gives calls that had none, with where each stands in the list. */
  const taken = new Map<string, { index: number; decision: ApprovalDecision }>();
  decisions.forEach((entry, index) => {
    const parsed = ApprovalDecision.safeParse(entry);
    if (!parsed.success) {
      refused.push({ kind: 'invalid', index, message: `decision ${index} is not a valid decision:\n${z.prettifyError(parsed.error)}` });
      return;
    }
    if (!parked) return;
    const decision = parsed.data;
    const { toolCallId } = decision;
    if (!waiting.has(toolCallId)) {
      const message = `tool call "${toolCallId}" is not waiting for approval (waiting: ${[...waiting].join(', ')})`;
      refused.push({ kind: 'not_waiting', index, toolCallId, message });
      return;
    }
    // Final: two approvers, or a button pressed twice, must not flip a call another already
    // decided while the rest of the batch waits.
    const earlier = parked.decided.get(toolCallId);
    if (earlier) {
      if (sameDecision(earlier, decision)) return;
      const message = `tool call "${toolCallId}" is already decided (${earlier.decision}); a decision cannot be changed`;
      refused.push({ kind: 'changed', index, toolCallId, earlier, message });
      return;
    }
    const first = taken.get(toolCallId);
    if (!first) {
      taken.set(toolCallId, { index, decision });
      return;
    }
    if (sameDecision(first.decision, decision)) return;
    const message = `tool call "${toolCallId}" is decided twice in one call, differently (decisions ${first.index} and ${index})`;
    refused.push({ kind: 'twice', index, toolCallId, first: first.index, message });
  });
  if (!parked) refused.push({ kind: 'none_waiting', message: 'no tool call is waiting for approval' });
  return { admitted: [...taken.values()].map((t) => t.decision), refused };
}

/** A retried request, or a listener and a button that both allow, give the same decision again. */
function sameDecision(a: ApprovalDecision, b: ApprovalDecision): boolean {
  return a.decision === 'allow' ? b.decision === 'allow' : b.decision === 'deny' && a.rationale === b.rationale;
}
