import { fireAndReport } from './fire-and-report.js';

type AddArgs = Parameters<AbortSignal['addEventListener']>;
type RemoveArgs = Parameters<AbortSignal['removeEventListener']>;
type Listener = NonNullable<AddArgs[1]>;
type Wrapper = (this: unknown, event: Event) => void;
type Handler = ((this: AbortSignal, event: Event) => unknown) | null;

/** What a guarded signal keeps: where failures go, the wrapper of each listener added, the `onabort` handler. */
interface Guard {
  readonly failed: (error: unknown) => void;
  wrappers: Map<Listener, Wrapper> | undefined;
  handler: Handler;
  /** The one wrapper `onabort` is set to, whatever handler is set, so that replacing it keeps its place. */
  callHandler: Wrapper | undefined;
}

const guardOf = Symbol('tiller.guard');
type GuardedSignal = AbortSignal & { [guardOf]: Guard };

const base = AbortSignal.prototype;
const baseOnabort = Object.getOwnPropertyDescriptor(base, 'onabort')!;

function wrapperOf(guard: Guard, listener: Listener): Wrapper {
  guard.wrappers ??= new Map();
  let wrapper = guard.wrappers.get(listener);
  if (!wrapper) {
    wrapper = function (this: unknown, event: Event) {
      fireAndReport(() => (typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event)), guard.failed);
    };
    guard.wrappers.set(listener, wrapper);
  }
  return wrapper;
}

/**
 * The prototype of a guarded signal: AbortSignal's, with listeners put behind a wrapper as they are
 * added. Anything but a function or an object goes through untouched, for AbortSignal to refuse as
 * it would.
 */
const guardedPrototype: AbortSignal = Object.create(base, {
  addEventListener: {
    configurable: true,
    writable: true,
    value(this: GuardedSignal, type: AddArgs[0], listener: AddArgs[1], options?: AddArgs[2]) {
      const guarded = typeof listener === 'function' || (typeof listener === 'object' && listener !== null) ? wrapperOf(this[guardOf], listener) : listener;
      return base.addEventListener.call(this, type, guarded, options);
    },
  },
  removeEventListener: {
    configurable: true,
    writable: true,
    value(this: GuardedSignal, type: RemoveArgs[0], listener: RemoveArgs[1], options?: RemoveArgs[2]) {
      const wrapper = listener ? this[guardOf].wrappers?.get(listener) : undefined;
      return base.removeEventListener.call(this, type, wrapper ?? listener, options);
    },
  },
  onabort: {
    configurable: true,
    enumerable: true,
    get(this: GuardedSignal) {
      return this[guardOf].handler;
    },
    set(this: GuardedSignal, value: unknown) {
      const guard = this[guardOf];
      guard.handler = typeof value === 'function' ? (value as Handler) : null;
      guard.callHandler ??= function (this: unknown, event: Event) {
        fireAndReport(() => guard.handler?.call(this as AbortSignal, event), guard.failed);
      };
      baseOnabort.set!.call(this, guard.handler ? guard.callHandler : null);
    },
  },
});

/**
 * Makes `signal` (a fresh one the shell lends to host code: a tool, a model, a compactor) call
 * every listener added to it, through `addEventListener` or `onabort`, by way of a wrapper that
 * hands a throw, or the rejection of the promise an async listener returned, to `failed`. Node
 * reports either as an uncaught exception, which ends the host process. A listener that does not
 * fail sees what it would have seen: the same event, `this`, order and removal. The signal stays
 * a real AbortSignal (fetch and Node's streams check that): only its prototype changes, to one
 * that adds the guard, shared by every guarded signal.
 */
export function guardListeners(signal: AbortSignal, failed: (error: unknown) => void): AbortSignal {
  (signal as GuardedSignal)[guardOf] = { failed, wrappers: undefined, handler: null, callHandler: undefined };
  Object.setPrototypeOf(signal, guardedPrototype);
  return signal;
}
