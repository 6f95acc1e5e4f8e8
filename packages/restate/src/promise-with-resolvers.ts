/**
 * Restate's SDK calls `Promise.withResolvers`, which Node gained in version 22. Tiller supports
 * Node 20, so this module adds it when it is missing; it is imported before the SDK.
 */
interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

const PromiseWith = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };

if (typeof PromiseWith.withResolvers !== 'function') {
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    writable: true,
    value<T>(): Resolvers<T> {
      let resolve!: Resolvers<T>['resolve'];
      let reject!: Resolvers<T>['reject'];
      const promise = new Promise<T>((yes, no) => {
        resolve = yes;
        reject = no;
      });
      return { promise, resolve, reject };
    },
  });
}

export {};
