/** A bad option or message; the message names it and says what was expected. */
export class AgentOptionsError extends Error {
  override readonly name = 'AgentOptionsError';
}

/** `prompt` while a turn runs. */
export class AgentBusyError extends Error {
  override readonly name = 'AgentBusyError';
}

/** The agent could not carry out an effect and stopped; create or resume a new one over the session. */
export class AgentBrokenError extends Error {
  override readonly name = 'AgentBrokenError';
}

/** `approve` for a call that is not waiting for a decision. */
export class ApprovalError extends Error {
  override readonly name = 'ApprovalError';
}
