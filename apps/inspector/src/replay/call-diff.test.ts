import type { Message } from '@tiller/core';
import { describe, expect, it } from 'vitest';
import { diffCalls } from './call-diff.js';

const user = (text: string): Message => ({ role: 'user', content: text });

describe('diffCalls', () => {
  it('counts what stayed, and lists what left and what came, repeated messages counted one by one', () => {
    const diff = diffCalls([user('a'), user('b'), user('b')], [user('summary'), user('b'), user('c')]);
    expect(diff.kept).toBe(1);
    expect(diff.removed).toEqual([user('a'), user('b')]);
    expect(diff.added).toEqual([user('summary'), user('c')]);
  });
});
