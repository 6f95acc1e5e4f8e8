import { describe, expect, it } from 'vitest';
import { AppendOnlyList } from './append-only-list.js';

describe('AppendOnlyList', () => {
  it('appends without changing the view it came from', () => {
    const a = AppendOnlyList.from([1, 2]);
    const b = a.append(3);
    expect(a.toArray()).toEqual([1, 2]);
    expect(b.toArray()).toEqual([1, 2, 3]);
    expect(b.last()).toBe(3);
    expect(b.at(-3)).toBe(1);
    expect(b.at(3)).toBeUndefined();
  });

  it('keeps two branches from one older view apart', () => {
    const base = AppendOnlyList.from(['a']);
    const left = base.append('l1').append('l2');
    const right = base.append('r1');
    expect(left.toArray()).toEqual(['a', 'l1', 'l2']);
    expect(right.toArray()).toEqual(['a', 'r1']);
    expect(base.append('x').toArray()).toEqual(['a', 'x']);
    expect(left.toArray()).toEqual(['a', 'l1', 'l2']);
  });

  it('serializes as the plain array of its items', () => {
    const list = AppendOnlyList.from([{ n: 1 }]).append({ n: 2 });
    expect(JSON.parse(JSON.stringify({ list }))).toEqual({ list: [{ n: 1 }, { n: 2 }] });
    expect([...list]).toEqual([{ n: 1 }, { n: 2 }]);
    expect(list.slice(1)).toEqual([{ n: 2 }]);
  });

  it('lends its items without a copy when it is the newest view, and copies otherwise', () => {
    const base = AppendOnlyList.from([1]);
    const newest = base.append(2);
    expect(newest.lend()).toEqual([1, 2]);
    expect(newest.lend()).toBe(newest.lend());
    expect(base.lend()).toEqual([1]);
    expect(base.lend()).not.toBe(base.lend());
  });

  it('adopts a fresh array without copying it, and still keeps an older view apart', () => {
    const items = [1, 2];
    const adopted = AppendOnlyList.adopt(items);
    expect(adopted.lend()).toBe(items);
    const longer = adopted.append(3);
    expect(longer.toArray()).toEqual([1, 2, 3]);
    expect(adopted.toArray()).toEqual([1, 2]);
    expect(adopted.append(4).toArray()).toEqual([1, 2, 4]);
  });
});
