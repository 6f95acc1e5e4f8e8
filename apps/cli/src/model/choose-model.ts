import { createAnthropic } from '@ai-sdk/anthropic';
import { createGoogleGenerativeAI } from '@ai-sdk/google';
import { createOpenAI } from '@ai-sdk/openai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { defaultModelCatalog } from '@tiller/compaction';
import { fromLanguageModel, type TillerModel } from '@tiller/shell';
import type { LanguageModel } from 'ai';
import { usageError } from '../cli/errors.js';

export interface ModelChoice {
  /** `provider:model` (`openai:gpt-5`, `anthropic:claude-sonnet-4-5`, `google:gemini-2.5-pro`), or a bare model id with `baseUrl`. */
  model?: string | undefined;
  /** Any OpenAI-compatible chat-completions server (llama.cpp, vLLM, Ollama, LM Studio). */
  baseUrl?: string | undefined;
  /** Overrides the catalog's context window. */
  window?: number | undefined;
}

/** The environment variables each provider reads its key from, first one set wins. */
export const KEY_VARIABLES = {
  openai: ['OPENAI_API_KEY'],
  anthropic: ['ANTHROPIC_API_KEY'],
  google: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  compatible: ['TILLER_API_KEY', 'OPENAI_API_KEY'],
} as const;

type Provider = keyof typeof KEY_VARIABLES;

const keyFrom = (env: NodeJS.ProcessEnv, provider: Provider): string | undefined => {
  for (const name of KEY_VARIABLES[provider]) if (env[name]) return env[name];
  return undefined;
};

/**
 * A Tiller model from the command line. The key comes from the environment and goes only to the
 * provider client: it is never part of the model's id, an event, the session or the journal.
 */
export function chooseModel(command: string, choice: ModelChoice, env: NodeJS.ProcessEnv): TillerModel {
  const { model, baseUrl } = choice;
  if (!model && !baseUrl) throw usageError(`tiller ${command}: say which model: --model provider:model (openai, anthropic, google) or --base-url URL for an OpenAI-compatible server`);
  let provider: Provider;
  let modelId: string;
  const colon = model?.indexOf(':') ?? -1;
  if (baseUrl) {
    provider = 'compatible';
    modelId = model ? (model.startsWith('openai-compatible:') ? model.slice('openai-compatible:'.length) : model) : 'default';
    try {
      new URL(baseUrl);
    } catch {
      throw usageError(`tiller ${command}: --base-url must be a URL such as http://127.0.0.1:8080/v1, got ${JSON.stringify(baseUrl)}`);
    }
  } else {
    const name = colon > 0 ? model!.slice(0, colon) : '';
    if (!(name === 'openai' || name === 'anthropic' || name === 'google')) {
      throw usageError(`tiller ${command}: --model must be provider:model with provider openai, anthropic or google (or give --base-url), got ${JSON.stringify(model)}`);
    }
    provider = name;
    modelId = model!.slice(colon + 1);
    if (!modelId) throw usageError(`tiller ${command}: --model ${model} names no model after the colon`);
  }
  const apiKey = keyFrom(env, provider);
  if (!apiKey && provider !== 'compatible') {
    throw usageError(`tiller ${command}: ${KEY_VARIABLES[provider].join(' or ')} is not set; the ${provider} provider needs a key`);
  }
  const window = choice.window ?? defaultModelCatalog.contextWindow(modelId);
  return fromLanguageModel(languageModel(provider, modelId, apiKey, baseUrl), { contextWindow: window, id: provider === 'compatible' ? `local/${modelId}` : `${provider}/${modelId}` });
}

function languageModel(provider: Provider, modelId: string, apiKey: string | undefined, baseUrl: string | undefined): LanguageModel {
  switch (provider) {
    case 'openai':
      return createOpenAI({ apiKey })(modelId);
    case 'anthropic':
      return createAnthropic({ apiKey })(modelId);
    case 'google':
      return createGoogleGenerativeAI({ apiKey })(modelId);
    case 'compatible':
      return createOpenAICompatible({ name: 'local', baseURL: baseUrl!, ...(apiKey ? { apiKey } : {}), includeUsage: true }).chatModel(modelId);
    default: {
      const unknown: never = provider;
      throw new TypeError(`unknown provider ${String(unknown)}`);
    }
  }
}

/** The options every command that talks to a model shares. */
export const MODEL_OPTIONS = {
  model: { type: 'string', short: 'm', value: 'PROVIDER:MODEL', description: 'openai:…, anthropic:… or google:… (keys from OPENAI_API_KEY, ANTHROPIC_API_KEY, GOOGLE_GENERATIVE_AI_API_KEY); with --base-url, the server\'s model name' },
  'base-url': { type: 'string', value: 'URL', description: 'an OpenAI-compatible server (key from TILLER_API_KEY or OPENAI_API_KEY, if it needs one)' },
} as const;
