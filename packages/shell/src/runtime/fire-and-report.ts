/**
 * Calls host code the shell does not wait for (a listener, an inspector) and hands any failure to
 * `failed`: a throw at once, the rejection of a promise it returned later. An async listener is
 * common, and its rejection, left alone, would be unhandled and end the host process.
 */
export function fireAndReport(call: () => unknown, failed: (error: unknown) => void): void {
  try {
    const returned = call();
    if (isPromiseLike(returned)) returned.then(undefined, failed);
  } catch (error) {
    failed(error);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
