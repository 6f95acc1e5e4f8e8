// First: the SDK needs Promise.withResolvers, which Node 20 lacks.
import './promise-with-resolvers.js';

export { driveTurn, dropMessages, type ApprovalWake, type DrivenTurn, type DriveTurnOptions, type TurnEngine } from './drive-turn.js';
export type { TurnMessage } from './turn-message.js';
export { DurableAgentOptions, type DurableEvent, type DurableToolEvent, type ResolvedDurableOptions } from './durable-options.js';
export { serve, durableServices, type ServeOptions, type Worker } from './serve.js';
export { connect, type ConnectOptions, type DurableClient, type DurableSession, type StartedTurn } from './client.js';
export type { ParkedApproval, RunningTurn, TurnRequest } from './session-object.js';
export type { PostResult } from './inbox-object.js';
export { startLocalServer, type LocalServer, type LocalServerOptions } from './local-server.js';

// Errors: one base class with a code; `isInstance` holds across two installed copies.
export { DurableError, type DurableErrorCode } from './errors/durable-error.js';
export { DurableOptionsError } from './errors/durable-options-error.js';
export { DurableClientError } from './errors/durable-client-error.js';
export { InvalidMessageError } from './errors/invalid-message-error.js';
export { LocalServerError } from './errors/local-server-error.js';
