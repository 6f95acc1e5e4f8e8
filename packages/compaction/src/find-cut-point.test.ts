import { describe, expect, it } from 'vitest';
import { assistant, call, cutsInsideBatch, type Draft, hostNote, label, pathOf, result, turn, user, words } from '../test/paths.js';
import { findCutPoint } from './find-cut-point.js';

const ids = (path: { id: string }[], index: number) => path[index]?.id;

/** A long turn, then a turn whose tool call and result have a host message between them. */
const noteInsideBatch = (resultTokens: number, ...after: Draft[]) =>
  pathOf(
    ...turn(1, [3000]),
    user('refactor', 'u2'),
    assistant([call('c2', 'read', { path: 'src/big.ts' })], { id: 'a2' }),
    hostNote('note from the host: the CI is red', 'note'),
    result('c2', words(resultTokens), 'read', 'r2'),
    ...after,
  );

describe('findCutPoint', () => {
  it('cuts at the user message where the newest entries reach the budget', () => {
    const path = pathOf(user(words(100), 'u1'), assistant(words(100)), user(words(100), 'u2'), assistant(words(100)));
    const cut = findCutPoint(path, 0, path.length, 150);
    expect(ids(path, cut.firstKeptIndex)).toBe('u2');
    expect(cut).toMatchObject({ isSplitTurn: false, turnStartIndex: -1, reached: true });
  });

  it('never cuts at a tool result: it moves on to the next user or assistant message', () => {
    const path = pathOf(
      user(words(10), 'u1'),
      assistant([call('c1', 'read', { path: 'a' })], { id: 'a1' }),
      result('c1', words(100), 'read', 'r1'),
      assistant(words(50), { id: 'a2' }),
    );
    const cut = findCutPoint(path, 0, path.length, 120);
    expect(ids(path, cut.firstKeptIndex)).toBe('a2');
    expect(cut.isSplitTurn).toBe(true);
    expect(ids(path, cut.turnStartIndex)).toBe('u1');
  });

  it('cuts at the calling assistant when only tool results follow the budget line (pi #7201)', () => {
    const path = pathOf(
      user(words(300), 'u1'),
      assistant(words(300), { id: 'a1' }),
      user(words(10), 'u2'),
      assistant([call('c1', 'read', { path: 'a' })], { id: 'a2' }),
      result('c1', words(5000), 'read', 'r1'),
    );
    const cut = findCutPoint(path, 0, path.length, 1000);
    expect(ids(path, cut.firstKeptIndex)).toBe('a2');
    expect(cut.isSplitTurn).toBe(true);
    expect(ids(path, cut.turnStartIndex)).toBe('u2');
  });

  it('keeps entries outside the context that sit just before the cut, and a cut at a user message splits nothing', () => {
    const path = pathOf(user(words(100), 'u1'), assistant(words(100)), label('model change'), label('thinking'), user(words(100), 'u2'), assistant(words(100)));
    const cut = findCutPoint(path, 0, path.length, 150);
    expect(cut.firstKeptIndex).toBe(2);
    expect(cut.isSplitTurn).toBe(false);
  });

  it('reports that nothing leaves when the whole span is below the budget', () => {
    const path = pathOf(user(words(10)), assistant(words(10)));
    expect(findCutPoint(path, 0, path.length, 1000)).toMatchObject({ reached: false, firstKeptIndex: 0 });
  });

  it('looks only at its span', () => {
    const path = pathOf(user(words(1000), 'u0'), user(words(100), 'u1'), assistant(words(100)), user(words(100), 'u2'), assistant(words(100)));
    const cut = findCutPoint(path, 1, path.length, 10_000);
    expect(cut.reached).toBe(false);
    expect(cut.firstKeptIndex).toBe(1);
  });

  it('never cuts at a host message that sits between a tool call and its result: the call stays with its result', () => {
    const path = noteInsideBatch(2000);
    const cut = findCutPoint(path, 0, path.length, 1500);
    expect(ids(path, cut.firstKeptIndex)).toBe('a2');
    expect(cut).toMatchObject({ isSplitTurn: true, reached: true });
    expect(ids(path, cut.turnStartIndex)).toBe('u2');
  });

  it('does not take a host message inside a batch for the start of the turn it splits', () => {
    const path = noteInsideBatch(500, assistant(words(2000), { id: 'a3' }));
    const cut = findCutPoint(path, 0, path.length, 1500);
    expect(ids(path, cut.firstKeptIndex)).toBe('a3');
    expect(ids(path, cut.turnStartIndex)).toBe('u2');
    expect(cutsInsideBatch(path, cut.turnStartIndex)).toBe(false);
  });
});
