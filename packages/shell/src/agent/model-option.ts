import type { TillerModel } from '@tiller/core';
import { z } from 'zod';

/**
 * The check of a `model` option: a Tiller model, with a non-empty id (a compactor reads it, and
 * `WindowManager` refuses a context without one) and `stream(request)`. `createAgent` and a durable
 * engine's options (`@tiller/restate`'s `serve`) take it into their schemas, so both refuse the
 * same values with the same words, under the name of the function and the option
 * (`createAgent: invalid options: ✖ expected a Tiller model … → at model`).
 */
export const tillerModelOption = z.custom<TillerModel>(
  (value) => typeof (value as TillerModel | undefined)?.stream === 'function' && typeof (value as TillerModel).id === 'string' && (value as TillerModel).id !== '',
  { message: 'expected a Tiller model (an object with a non-empty id and stream(request)); wrap an AI SDK model with fromLanguageModel(model)' },
);
