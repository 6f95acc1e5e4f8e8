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
