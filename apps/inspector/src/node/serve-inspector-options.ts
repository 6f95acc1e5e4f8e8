import { z } from 'zod';
import { checkOptions } from './check-options.js';

export interface ServeInspectorOptions {
  /** A journal, or a session file with its journal beside it. */
  file: string;
  /** 0 (the default) picks a free port. */
  port?: number | undefined;
  /**
   * Follow the journal as it is written (a live run): the page streams it over server-sent
   * events from the first line on and keeps up with new ones. Default false: the page loads the
   * file as it is. The journal need not exist yet when following.
   */
  follow?: boolean | undefined;
  /**
   * Called with the URL once the server listens (for example to print it). When it throws, the
   * server is closed and `serveInspector` rejects with its error.
   */
  onListening?: ((url: string) => void) | undefined;
}

const ServeInspectorOptionsSchema = z.strictObject({
  file: z.string({ error: 'expected the path of a journal or a session file' }).min(1, { error: 'expected the path of a journal or a session file' }),
  port: z.int({ error: 'expected a whole number from 0 to 65535' }).min(0, { error: 'expected a whole number from 0 to 65535' }).max(65_535, { error: 'expected a whole number from 0 to 65535' }).optional(),
  follow: z.boolean({ error: 'expected true or false' }).optional(),
  onListening: z.custom<(url: string) => void>((value) => typeof value === 'function', { error: 'expected a function' }).optional(),
});

/** The options, checked: an `InspectorOptionsError` names the first bad one. */
export function checkServeInspectorOptions(options: unknown): ServeInspectorOptions {
  return checkOptions('serveInspector', ServeInspectorOptionsSchema, options, '{ file }');
}
