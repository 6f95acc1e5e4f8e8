/**
 * @tiller/inspector: the turn inspector's Node side, for hosts and the `tiller` command.
 *
 * - `serveInspector({ file, port: 0, follow })`: the page and the file on 127.0.0.1; `follow`
 *   streams a journal as it is written (a live run).
 * - `writeInspectorHtml(file, out)`: one self-contained HTML file that opens from file://.
 * - `resolveInspectorSource(file)`: which journal and session file an argument stands for.
 */
export { serveInspector, type InspectorServer, type ServeInspectorOptions } from './node/serve-inspector.js';
export { writeInspectorHtml } from './node/write-inspector-html.js';
export { resolveInspectorSource, type InspectorSource } from './node/resolve-source.js';
export { buildPage } from './node/page-html.js';
export { InspectorError, type InspectorErrorCode } from './errors/inspector-error.js';
export { InspectorOptionsError } from './errors/inspector-options-error.js';
export { InspectorSourceError } from './errors/inspector-source-error.js';
