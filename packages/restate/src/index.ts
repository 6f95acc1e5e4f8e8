// First: the SDK needs Promise.withResolvers, which Node 20 lacks.
import './promise-with-resolvers.js';

export { driveTurn, type ApprovalWake, type DrivenTurn, type DriveTurnOptions, type TurnEngine } from './drive-turn.js';
export type { TurnMessage } from './turn-message.js';
export { DurableAgentOptions, DurableOptionsError, type DurableEvent, type ResolvedDurableOptions } from './durable-options.js';
export { serve, durableServices, type ServeOptions, type Worker } from './serve.js';
export { connect, DurableClientError, type ConnectOptions, type DurableClient, type DurableSession, type StartedTurn } from './client.js';
export type { ParkedApproval, RunningTurn, TurnRequest } from './session-object.js';
export type { PostResult } from './inbox-object.js';
export { startLocalServer, LocalServerError, type LocalServer, type LocalServerOptions } from './local-server.js';
