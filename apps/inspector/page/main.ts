/**
 * The inspector page: loads a journal (and its session file, when there is one), replays the
 * selected segment through the real core, and shows the position chosen with the slider or the
 * keyboard in four panes. A live journal arrives line by line over server-sent events.
 */
import './style.css';
import { appendJournalLine, effectId, emptyJournal, readJournal, type JournalRun, type JournalSegment, type ParsedJournal, type UnreadableRun } from '../src/journal/read-journal.js';
import { isSessionText, readSession, type ParsedSession } from '../src/journal/read-session.js';
import { segmentBase } from '../src/replay/segment-base.js';
import { CONFIG_GLOBAL, type InspectorConfig } from '../src/page-config.js';
import { extendReplay, inFlight, startReplay, toolRun, type SegmentReplay } from '../src/replay/replay-segment.js';
import { mountChart } from './chart.js';
import { byId, el } from './dom.js';
import { mountGauge } from './gauge.js';
import { mountTimeline } from './timeline.js';
import { mountTree } from './tree.js';

interface Loaded {
  name: string;
  journal: ParsedJournal;
  session: ParsedSession | undefined;
  live: boolean;
  /** What went wrong opening it that did not stop it (a live run's session file that cannot be read). */
  notices: string[];
}

const config: InspectorConfig = (window as unknown as Record<string, InspectorConfig | undefined>)[CONFIG_GLOBAL] ?? {};

const slider = byId<HTMLInputElement>('slider');
const positionText = byId('position');
const verdict = byId('verdict');
const notices = byId('notices');
const segmentSelect = byId<HTMLSelectElement>('segment');
const follow = byId<HTMLInputElement>('follow');
const inflight = byId('inflight');
const detailTitle = byId('detail-title');
const detail = byId('detail');

let loaded: Loaded | null = null;
let replay: SegmentReplay | null = null;
/** The run picked, when this inspector cannot read it (then `replay` is null). */
let unreadable: UnreadableRun | null = null;
const replays = new Map<number, SegmentReplay>();
let position = 0;

function showDetail(title: string, body: unknown, render?: (into: HTMLElement) => void): void {
  detailTitle.textContent = title;
  if (render) render(detail);
  else detail.replaceChildren(el('pre', {}, JSON.stringify(body, null, 2)));
}

const chart = mountChart();
const timeline = mountTimeline((p) => go(p), showDetail);
const gauge = mountGauge(showDetail, (p) => go(p));
const tree = mountTree(showDetail);

function replayOf(segment: JournalSegment): SegmentReplay {
  let found = replays.get(segment.index);
  if (!found) {
    const earlier = loaded!.journal.segments.slice(0, segment.index).map(replayOf);
    found = startReplay(segment, segmentBase(segment, loaded?.session, earlier));
    replays.set(segment.index, found);
  }
  extendReplay(found);
  return found;
}

/** Picks a run by its place among all the journal's runs (the picker's value). */
function selectRun(index: number): void {
  if (!loaded) return;
  const run = loaded.journal.runs[index];
  replay = run?.kind === 'readable' ? replayOf(run.segment) : null;
  unreadable = run?.kind === 'unreadable' ? run : null;
  segmentSelect.value = String(index);
  timeline.setReplay(replay);
  gauge.setReplay(replay);
  tree.setData(replay, loaded.session);
  slider.max = String(replay?.steps.length ?? 0);
  go(loaded.live ? (replay?.steps.length ?? 0) : 0);
  notify();
}

function go(next: number): void {
  const started = performance.now();
  const max = replay?.steps.length ?? 0;
  position = Math.max(0, Math.min(max, Math.round(next)));
  slider.value = String(position);
  const step = position > 0 ? replay?.steps[position - 1] : undefined;
  positionText.textContent = `${position} / ${max}${step ? ` · ${step.recorded.input.type} → ${step.after}` : ''}`;
  chart.show(replay, position);
  timeline.show(position);
  gauge.show(position);
  tree.show(position);
  document.body.dataset.position = String(position);
  document.body.dataset.state = step?.after ?? 'idle';
  showInFlight();
  // The script's share of a step (the rest is the browser's style, layout and paint): the benchmark reads it.
  document.body.dataset.stepMs = (performance.now() - started).toFixed(2);
}

function showInFlight(): void {
  if (!replay || !loaded?.live || position !== replay.steps.length) {
    inflight.textContent = '';
    return;
  }
  const effect = inFlight(replay, position - 1);
  if (!effect) {
    inflight.textContent = replay.steps.length > 0 ? 'idle' : 'waiting for the first input';
    return;
  }
  const since = replay.steps[position - 1]?.recorded.input.at;
  const seconds = since ? ((Date.now() - Date.parse(since)) / 1000).toFixed(1) : '?';
  let what: string = effect.type;
  if (effect.type === 'run_tools') {
    const running = effect.calls.filter((c) => toolRun(replay!, c.id, effectId(effect))?.finished === false);
    what = `run_tools: ${running.length > 0 ? running.map((c) => c.name).join(', ') : effect.calls.map((c) => c.name).join(', ')}`;
  }
  inflight.textContent = `in flight: ${what} ${effectId(effect)} (${seconds} s)`;
  inflight.dataset.effect = effect.type;
}

function notify(): void {
  notices.replaceChildren();
  const add = (text: string, kind = 'warn') => notices.append(el('div', { class: `notice ${kind}` }, text));
  for (const notice of loaded?.notices ?? []) add(notice);
  for (const problem of [...(loaded?.journal.problems ?? []), ...(loaded?.session?.problems ?? [])].slice(0, 5)) add(problem.message);
  if (replay?.baseProblem) add(replay.baseProblem);
  if (replay?.stopped) add(replay.stopped, 'bad');
  if (unreadable) {
    verdict.textContent = `run ${unreadable.number} cannot be read: ${unreadable.reason}`;
    verdict.className = 'verdict bad';
    return;
  }
  if (!replay) {
    verdict.textContent = loaded ? 'the journal holds no segment' : 'no journal open';
    verdict.className = 'verdict';
    return;
  }
  const n = replay.steps.length;
  if (replay.firstDivergence === null) {
    verdict.textContent = `replay matches the recording (${n} inputs)`;
    verdict.className = 'verdict ok';
  } else {
    verdict.textContent = `replay differs from the recording at input #${replay.firstDivergence + 1}`;
    verdict.className = 'verdict bad';
  }
}

/** A run in the picker: its number, when it started, the model when the journal names it; or that it cannot be read. */
function runOption(run: JournalRun, index: number): HTMLOptionElement {
  if (run.kind === 'unreadable') return el('option', { value: String(index) }, `run ${run.number} · cannot be read`);
  const { createdAt, model } = run.segment.header;
  return el('option', { value: String(index) }, `run ${run.segment.number} · ${createdAt.replace('T', ' ').slice(0, 19)}${model ? ` · ${model}` : ''}`);
}

function open(next: Loaded): void {
  loaded = next;
  replays.clear();
  document.title = `${next.name} · Tiller inspector`;
  segmentSelect.replaceChildren(...next.journal.runs.map(runOption));
  document.body.classList.toggle('live', next.live);
  (follow.parentElement as HTMLElement).hidden = !next.live;
  selectRun(Math.max(0, next.journal.runs.length - 1));
  document.body.dataset.ready = 'true';
  // Time from the start of navigation to the first picture of the replay: what the benchmark reads.
  document.body.dataset.loadMs = performance.now().toFixed(0);
}

/** Sorts picked or dropped files into a journal and a session file by their first line. */
function openTexts(files: Array<{ name: string; text: string }>): void {
  const session = files.find((f) => isSessionText(f.text));
  const journal = files.find((f) => f !== session);
  if (!journal) {
    openFailed(session ? `${session.name} is a session file: pick its journal (${session.name.replace(/\.jsonl$/, '')}.journal.jsonl) with it` : 'no file');
    return;
  }
  try {
    open({ name: journal.name, journal: readJournal(journal.text), session: session ? readSession(session.text, session.name) : undefined, live: false, notices: [] });
  } catch (error) {
    openFailed((error as Error).message);
  }
}

function openFailed(message: string): void {
  notices.replaceChildren(el('div', { class: 'notice bad' }, message));
  document.body.dataset.ready = 'error';
}

/** What the page calls the session file at `url` in its messages: its name, when the server gave it. */
function sessionName(url: string): string {
  return url === config.sessionUrl && config.sessionName ? config.sessionName : url;
}

async function fetchText(url: string): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status} ${response.statusText}`);
  return response.text();
}

/** `?journal=URL` (a journal, or a session file with its journal beside it), optionally `&session=URL`. */
async function openFromQuery(journalUrl: string, sessionUrl: string | null): Promise<void> {
  try {
    let text = await fetchText(journalUrl);
    let session = sessionUrl ? await fetchText(sessionUrl) : undefined;
    let name = journalUrl;
    if (isSessionText(text)) {
      session = text;
      name = journalUrl.replace(/\.jsonl(\?.*)?$/, '.journal.jsonl$1');
      if (name === journalUrl) throw new Error('this is a session file and its name does not end in .jsonl: give its journal as ?journal= and the session as &session=');
      text = await fetchText(name);
    }
    openTexts([{ name, text }, ...(session ? [{ name: sessionName(sessionUrl ?? journalUrl), text: session }] : [])]);
  } catch (error) {
    openFailed(`could not open ${journalUrl}: ${(error as Error).message}`);
  }
}

/** Follows a journal as it is written: every line an event, resumed from the last id on reconnect. */
async function followLive(eventsUrl: string, sessionUrl: string | undefined): Promise<void> {
  // The server names a session file only once it exists; one it cannot read leaves the tree to grow from the replay.
  const notices: string[] = [];
  let session: ParsedSession | undefined;
  if (sessionUrl) {
    try {
      session = readSession(await fetchText(sessionUrl), sessionName(sessionUrl));
    } catch (error) {
      notices.push(`${(error as Error).message}; the session tree grows from the replay instead`);
    }
  }
  open({ name: config.name ?? 'live journal', journal: emptyJournal(), session, live: true, notices });
  const source = new EventSource(eventsUrl);
  let pending = false;
  source.addEventListener('message', (event) => {
    if (!loaded) return;
    const before = loaded.journal.runs.length;
    appendJournalLine(loaded.journal, event.data);
    if (loaded.journal.runs.length !== before) {
      const index = loaded.journal.runs.length - 1;
      segmentSelect.append(runOption(loaded.journal.runs[index]!, index));
      if (follow.checked) selectRun(index);
    }
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      if (!replay) return;
      const atEnd = position === replay.steps.length;
      extendReplay(replay);
      slider.max = String(replay.steps.length);
      timeline.refresh();
      gauge.setReplay(replay);
      go(follow.checked || atEnd ? replay.steps.length : position);
      notify();
      document.body.dataset.lines = String(loaded?.journal.lines ?? 0);
    });
  });
  setInterval(showInFlight, 250);
}

slider.addEventListener('input', () => go(Number(slider.value)));
byId('chart-size').addEventListener('click', (event) => {
  const wide = document.body.classList.toggle('wide-chart');
  (event.target as HTMLElement).textContent = wide ? 'narrower' : 'wider';
});
byId('prev').addEventListener('click', () => go(position - 1));
byId('next').addEventListener('click', () => go(position + 1));
segmentSelect.addEventListener('change', () => selectRun(Number(segmentSelect.value)));
document.addEventListener('keydown', (event) => {
  if (event.target instanceof HTMLInputElement && event.target.type !== 'range') return;
  const moves: Record<string, number> = { ArrowRight: 1, ArrowDown: 1, j: 1, ArrowLeft: -1, ArrowUp: -1, k: -1, PageDown: 50, PageUp: -50 };
  if (event.key in moves) go(position + moves[event.key]!);
  else if (event.key === 'Home') go(0);
  else if (event.key === 'End') go(replay?.steps.length ?? 0);
  else return;
  event.preventDefault();
});

const readFiles = async (list: FileList) => Promise.all([...list].map(async (f) => ({ name: f.name, text: await f.text() })));
byId<HTMLInputElement>('file').addEventListener('change', async (event) => {
  const input = event.target as HTMLInputElement;
  if (input.files?.length) openTexts(await readFiles(input.files));
});
const drop = byId('drop');
window.addEventListener('dragover', (event) => {
  event.preventDefault();
  drop.hidden = false;
});
window.addEventListener('dragleave', (event) => {
  if (event.relatedTarget === null) drop.hidden = true;
});
window.addEventListener('drop', async (event) => {
  event.preventDefault();
  drop.hidden = true;
  if (event.dataTransfer?.files.length) openTexts(await readFiles(event.dataTransfer.files));
});

const query = new URLSearchParams(location.search);
if (config.embedded) {
  openTexts([
    { name: config.name ?? 'journal', text: config.embedded.journal },
    ...(config.embedded.session ? [{ name: 'session', text: config.embedded.session }] : []),
  ]);
} else if (config.eventsUrl) {
  void followLive(config.eventsUrl, config.sessionUrl);
} else if (query.get('journal') || config.journalUrl) {
  void openFromQuery(query.get('journal') ?? config.journalUrl!, query.get('session') ?? config.sessionUrl ?? null);
} else {
  notify();
  document.body.dataset.ready = 'empty';
}
