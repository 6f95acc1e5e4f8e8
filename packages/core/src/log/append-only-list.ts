/**
 * An immutable view of the first `length` items of a storage array that only grows. Appending
 * to the newest view pushes onto the shared storage, so a step costs the same at any length;
 * appending to an older view (a snapshot stepped twice) copies its prefix first, so no view
 * ever sees another's items.
 */
export class AppendOnlyList<T> implements Iterable<T> {
  private constructor(
    private readonly storage: T[],
    readonly length: number,
  ) {}

  static empty<T>(): AppendOnlyList<T> {
    return new AppendOnlyList<T>([], 0);
  }

  /** A list over `items` itself, no copy: for an array just built that nobody else holds. */
  static adopt<T>(items: T[]): AppendOnlyList<T> {
    return new AppendOnlyList(items, items.length);
  }

  static from<T>(items: Iterable<T>): AppendOnlyList<T> {
    const storage = [...items];
    return new AppendOnlyList(storage, storage.length);
  }

  append(...items: readonly T[]): AppendOnlyList<T> {
    if (items.length === 0) return this;
    const storage = this.length === this.storage.length ? this.storage : this.storage.slice(0, this.length);
    for (const item of items) storage.push(item);
    return new AppendOnlyList(storage, storage.length);
  }

  at(index: number): T | undefined {
    const i = index < 0 ? this.length + index : index;
    return i >= 0 && i < this.length ? this.storage[i] : undefined;
  }

  last(): T | undefined {
    return this.length > 0 ? this.storage[this.length - 1] : undefined;
  }

  /** A copy of `[from, to)`, like `Array.prototype.slice` with non-negative bounds. */
  slice(from = 0, to = this.length): T[] {
    return this.storage.slice(Math.max(0, from), Math.min(to, this.length));
  }

  toArray(): T[] {
    return this.storage.slice(0, this.length);
  }

  /**
   * The items without a copy when this is the newest view (its storage holds exactly its items),
   * else a copy. Lent, not given: a later append to this view grows the same array, so read it
   * now and copy what must be kept.
   */
  lend(): readonly T[] {
    return this.length === this.storage.length ? this.storage : this.toArray();
  }

  /** Snapshots serialize their lists as plain arrays. */
  toJSON(): T[] {
    return this.toArray();
  }

  *[Symbol.iterator](): Iterator<T> {
    for (let i = 0; i < this.length; i++) yield this.storage[i]!;
  }
}
