// ---- Model-based tests of your own agent: paths, runs, invariants, coverage ----
export { agentPaths, PATH_FAULTS, type AgentPaths, type AgentPathsOptions, type NamedPath, type PathFault } from './agent-paths.js';
export { parsePath } from './parse-path.js';
export {
  formatPath,
  pathName,
  stepLabel,
  type AgentPath,
  type ApprovalKind,
  type FailureKind,
  type PathStep,
  type PlannedCall,
  type ReplyKind,
  type RetriedFault,
  type ScriptedStep,
  type ToolOutcomeKind,
} from './path-step.js';
export type { CallClass } from './path-step.js';
export { runPath, type AgentUnderTest, type AgentWorld, type MakeAgent, type PathRun, type RunPathOptions } from './run/run-path.js';
export type { ToolRun } from './run/world.js';
export { INVARIANTS, type BrokenInvariant, type InvariantName, type UserInvariant } from './run/invariants.js';
export { assertFullCoverage, coverage, reachableByTheWorld, type CoverageReport, type CoveredRun, type TransitionKey } from './coverage.js';
export { unansweredCalls } from './transcript.js';
export { schemaArbitrary, SchemaArbitraryError } from './schema-arbitrary.js';

// ---- Test doubles: scripted models (Tiller's and the AI SDK's), faults, a local server, fixtures ----
export * from './doubles/index.js';

// ---- Driving the pure core by hand ----
export { createTurnDriver, userMessage, type DrivenStep, type TurnDriver } from './turn-driver.js';

// ---- Generated pi sessions: realistic pi session files made from a seed, for tests that would
// otherwise need a recording ----
export { generatePiSession, type GeneratedPiSession, type PiSessionCounts, type PiSessionOptions } from './pi-sessions/generate-pi-session.js';
export { seededRandom, type SeededRandom } from './pi-sessions/seeded-random.js';
