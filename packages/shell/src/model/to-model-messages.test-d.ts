import type { Message } from '@tiller/core';
import { generateText, type ModelMessage } from 'ai';
import { describe, expectTypeOf, it } from 'vitest';
import { toModelMessages } from '../index.js';

describe('toModelMessages', () => {
  it("takes Tiller's messages and gives what the AI SDK's calls take as their messages", () => {
    expectTypeOf(toModelMessages).parameter(0).toEqualTypeOf<readonly Message[]>();
    expectTypeOf(toModelMessages).returns.toEqualTypeOf<ModelMessage[]>();
    expectTypeOf(toModelMessages([])).toExtend<NonNullable<Parameters<typeof generateText>[0]['messages']>>();
  });
});
