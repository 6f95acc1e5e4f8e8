/**
 * What a page is told about its data before it loads: set by `serveInspector` (URLs on
 * 127.0.0.1) or by `writeInspectorHtml` (the files themselves, embedded), as a global the page
 * reads at start. A page opened with nothing waits for a file (picker, drop, `?journal=URL`).
 */
export interface InspectorConfig {
  /** Shown in the title. */
  name?: string;
  /** The data itself, for a page that must open from file:// with nothing beside it. */
  embedded?: { journal: string; session?: string | undefined };
  /** Where the journal's text is. */
  journalUrl?: string;
  /** Where the session file is (its tree, and the base of a segment that did not start empty). */
  sessionUrl?: string;
  /** The session file's name, for the page's messages about it (`sessionUrl` is only a route). */
  sessionName?: string;
  /** Server-sent events: one journal line per event, `id` its line number; resumable with Last-Event-ID. */
  eventsUrl?: string;
}

export const CONFIG_GLOBAL = '__TILLER_INSPECTOR__';

/** The script tag that hands the page its config; safe to put in HTML whatever the data holds. */
export function configScript(config: InspectorConfig): string {
  // `<` escaped: no `</script>` or `<!--` in the data can end the tag early.
  const json = JSON.stringify(config).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<script>window.${CONFIG_GLOBAL}=${json};</script>`;
}

/** The page's HTML with its config put in before its own script. */
export function withConfig(html: string, config: InspectorConfig): string {
  const at = html.indexOf('<script');
  const script = configScript(config);
  return at < 0 ? html.replace('</head>', `${script}</head>`) : `${html.slice(0, at)}${script}${html.slice(at)}`;
}
