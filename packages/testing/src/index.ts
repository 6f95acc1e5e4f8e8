export { fixturePath, fixturesDir, readFixture, recordedFixtures, type FixtureName } from './fixtures.js';
export {
  scriptedSummarizer,
  type ScriptedSummarizer,
  type ScriptedSummarizerOptions,
  type ScriptedSummaryRequest,
} from './scripted-summarizer.js';
export { createTurnDriver, userMessage, type DrivenStep, type TurnDriver } from './turn-driver.js';
export {
  TURN_MODEL_CONFIG,
  transitionsTaken,
  turnMachineStates,
  turnMachineTransitions,
  turnModelInput,
  turnModelInputs,
  type LabeledInput,
  turnModelPaths,
  type ModelPath,
  type ModelStep,
  type TransitionKey,
} from './turn-model.js';
export {
  scriptedModel,
  type RecordedRequest,
  type ScriptedCall,
  type ScriptedFailure,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptStep,
} from './scripted-model.js';

// Generated pi sessions: realistic pi session files made from a seed, for tests that would
// otherwise need a recording.
export { generatePiSession, type GeneratedPiSession, type PiSessionCounts, type PiSessionOptions } from './pi-sessions/generate-pi-session.js';
export { seededRandom, type SeededRandom } from './pi-sessions/seeded-random.js';
