// Test doubles: scripted models (Tiller's and the AI SDK's), a local OpenAI-compatible server,
// the recorded fixtures. The main entry re-exports all of it.
export { fixturePath, fixturesDir, readFixture, recordedFixtures, type FixtureName } from './fixtures.js';
export {
  scriptedSummarizer,
  type ScriptedSummarizer,
  type ScriptedSummarizerOptions,
  type ScriptedSummaryRequest,
} from './scripted-summarizer.js';
export {
  MODEL_FAULTS,
  scriptedModel,
  type ModelFault,
  type RecordedRequest,
  type ScriptedCall,
  type ScriptedFailure,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedReply,
  type ScriptStep,
} from './scripted-model.js';
export {
  scriptedLanguageModel,
  type LanguageModelCall,
  type LanguageModelFault,
  type LanguageModelReply,
  type LanguageModelStep,
  type ScriptedLanguageModel,
} from './scripted-language-model.js';
export {
  startOpenAICompatibleServer,
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  type RecordedHttpRequest,
  type ServerFault,
  type ServerReply,
  type StreamScript,
  type WireFormat,
} from './openai-compatible-server.js';
