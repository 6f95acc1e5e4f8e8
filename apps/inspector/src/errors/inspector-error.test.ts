import { expect, it } from 'vitest';
import { InspectorError } from './inspector-error.js';
import { InspectorOptionsError } from './inspector-options-error.js';
import { InspectorSourceError } from './inspector-source-error.js';

it('the errors of @tiller/inspector share one base with a code, recognised across two installed copies', async () => {
  // Second copies of the modules, as a second install of the package would load (the CLI and a host may each have one).
  const copy = Date.now();
  const other = (await import(/* @vite-ignore */ `./inspector-source-error.js?copy=${copy}`)) as typeof import('./inspector-source-error.js');
  const foreign = new other.InspectorSourceError('chat.jsonl: no such file');
  expect(foreign instanceof InspectorSourceError).toBe(false);
  expect(InspectorSourceError.isInstance(foreign)).toBe(true);
  expect(InspectorError.isInstance(foreign)).toBe(true);
  expect(InspectorOptionsError.isInstance(foreign)).toBe(false);
  expect(foreign).toMatchObject({ name: 'InspectorSourceError', code: 'invalid_source', message: 'chat.jsonl: no such file' });

  const options = new InspectorOptionsError('serveInspector', 'port', 'expected a port');
  expect(options).toMatchObject({ name: 'InspectorOptionsError', code: 'invalid_options', message: 'serveInspector: option port: expected a port' });
  expect(InspectorError.isInstance(options)).toBe(true);
  expect(InspectorSourceError.isInstance(options)).toBe(false);
  expect(InspectorError.isInstance(new Error('plain'))).toBe(false);
  expect(InspectorError.isInstance({ name: 'InspectorSourceError', code: 'invalid_source' })).toBe(false);
  expect(new InspectorSourceError('x', { cause: 'why' }).cause).toBe('why');
});
