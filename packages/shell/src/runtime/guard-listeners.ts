import { fireAndReport } from './fire-and-report.js';

type AddArgs = Parameters<AbortSignal['addEventListener']>;
type RemoveArgs = Parameters<AbortSignal['removeEventListener']>;
type Listener = NonNullable<AddArgs[1]>;
type Handler = ((this: AbortSignal, event: Event) => unknown) | null;

const onabort = Object.getOwnPropertyDescriptor(AbortSignal.prototype, 'onabort')!;

/**
 * Makes `signal` (a fresh one the shell lends to host code: a tool, a model, a compactor) call
 * every listener added to it, through `addEventListener` or `onabort`, by way of a wrapper that
 * hands a throw, or the rejection of the promise an async listener returned, to `failed`. Node
 * reports either as an uncaught exception, which ends the host process. A listener that does not
 * fail sees what it would have seen: the same event, `this`, order and removal. The signal stays
 * a real AbortSignal (fetch and Node's streams check that), changed on the instance alone.
 */
export function guardListeners(signal: AbortSignal, failed: (error: unknown) => void): AbortSignal {
  const wrappers = new WeakMap<object, (this: unknown, event: Event) => void>();
  const wrapperOf = (listener: Listener) => {
    let wrapper = wrappers.get(listener);
    if (!wrapper) {
      wrapper = function (this: unknown, event: Event) {
        fireAndReport(() => (typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event)), failed);
      };
      wrappers.set(listener, wrapper);
    }
    return wrapper;
  };
  // Anything but a function or an object goes through untouched, for the signal to refuse as it would.
  const guarded = (listener: unknown) => (typeof listener === 'function' || (typeof listener === 'object' && listener !== null) ? wrapperOf(listener as Listener) : listener);
  const { addEventListener, removeEventListener } = signal;
  let handler: Handler = null;
  // One wrapper for every handler set, so replacing the handler keeps its place among the listeners.
  const callHandler = function (this: AbortSignal, event: Event) {
    fireAndReport(() => handler?.call(this, event), failed);
  };
  Object.defineProperties(signal, {
    addEventListener: {
      configurable: true,
      writable: true,
      value: (type: AddArgs[0], listener: AddArgs[1], options?: AddArgs[2]) => addEventListener.call(signal, type, guarded(listener) as AddArgs[1], options),
    },
    removeEventListener: {
      configurable: true,
      writable: true,
      value: (type: RemoveArgs[0], listener: RemoveArgs[1], options?: RemoveArgs[2]) =>
        removeEventListener.call(signal, type, ((listener && wrappers.get(listener)) ?? listener) as RemoveArgs[1], options),
    },
    onabort: {
      configurable: true,
      enumerable: true,
      get: () => handler,
      set: (value: unknown) => {
        handler = typeof value === 'function' ? (value as Handler) : null;
        onabort.set!.call(signal, handler ? callHandler : null);
      },
    },
  });
  return signal;
}
