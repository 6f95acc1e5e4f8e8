import { text } from 'node:stream/consumers';
import type { TurnOutcome } from '@tiller/core';
import { createSessionLog, JsonlStore, type SessionLog } from '@tiller/session';
import { type Agent, type AgentEvent, type AgentListener, type AgentOptions, createAgent, fileJournal, type JournalStore, journalPathFor, resumeAgent } from '@tiller/shell';
import { type ClosedOutputWatch, OUTPUT_CLOSED, watchClosedOutput } from '../cli/closed-output.js';
import { defineCommand, type Io } from '../cli/command.js';
import { ExitCode, inputError, usageError } from '../cli/errors.js';
import { sayReadWarnings, tornJournalWarnings } from '../cli/read-warnings.js';
import { oneOf, positiveInteger } from '../cli/parse-command-line.js';
import { inspectLive, type LiveInspection } from '../inspect/inspect-live.js';
import { INSPECT_OPTION, inspectView } from '../inspect/inspect-option.js';
import { untilInterrupted } from '../inspect/serve-journal.js';
import { chooseModel, MODEL_OPTIONS } from '../model/choose-model.js';
import { COMPACTORS, compactorFor, systemPromptFor, toolsFor } from '../run/agent-settings.js';
import { interactive } from '../run/interactive.js';
import { workspaceFolder } from '../run/workspace-folder.js';
import { runSessionFile } from '../run/run-session-file.js';
import { sendBeside } from '../run/send-beside.js';
import { storageFailure } from '../run/storage-failure.js';
import { resolveEntryId } from '../sessions/entry-id.js';
import { sessionFormatOf } from '../sessions/open-session.js';
import { readInputFile } from '../sessions/replay-files.js';
import { fileToolPolicy } from '../tools/file-tools.js';
import { describeCall, describeOutcome } from '../view/describe.js';
import { jsonView, turnView } from '../view/turn-view.js';

export const runCommand = defineCommand({
  name: 'run',
  summary: 'run a real model (OpenAI, Anthropic, Google, any OpenAI-compatible server) with file tools, in a session',
  args: '[PROMPT...]',
  positionals: { min: 0, max: Number.POSITIVE_INFINITY },
  description: [
    'On a terminal it is interactive: a line typed while a turn runs is a steering message for the',
    'model (it joins at the next boundary); Ctrl-C aborts the turn and the session stays valid; a',
    'second Ctrl-C exits. Without a terminal it runs the one prompt (from the arguments, else from',
    'stdin) and exits: 0 when the turn completed, 1 when it failed, 130 when interrupted.',
    'The session is a JSONL file with its journal beside it (by default a new one in',
    '$TILLER_HOME/sessions/<this directory>/; TILLER_HOME defaults to ~/.tiller). A run that was',
    'killed mid-turn is resumed from the journal when the session is opened again. Keys are read',
    'from the environment and never written anywhere.',
    '--inspect follows the run live in the inspector page on 127.0.0.1 (the journal streams to it as',
    'it is written); without a terminal the page goes on serving after the turn until Ctrl-C.',
    "--inspect=stately feeds Stately's inspector instead. The URL goes to stdout, or to stderr with",
    '--print or --mode json.',
  ].join('\n'),
  options: {
    ...MODEL_OPTIONS,
    print: { type: 'boolean', short: 'p', description: 'print only the final answer on stdout (no terminal session)' },
    mode: { type: 'string', value: 'M', description: 'text (default) or json: every agent event as one JSON line' },
    session: { type: 'string', value: 'FILE', description: 'the session file (created when missing)' },
    continue: { type: 'boolean', short: 'c', description: 'continue the newest session of this directory' },
    resume: { type: 'boolean', short: 'r', description: 'pick a session of this directory to continue (on a terminal)' },
    fork: { type: 'string', value: 'ENTRY', description: 'continue from an earlier entry of the session (a new branch; tiller show lists ids)' },
    window: { type: 'string', short: 'w', value: 'N', description: "the model's context window in tokens (default: known for common models)" },
    compactor: { type: 'string', value: 'C', description: 'summarize (default when the window is known), clearToolResults, keepTail or none' },
    tools: { type: 'string', value: 'LIST', description: 'all (default: list_files, read_file, write_file, edit_file), none, or a comma-separated list' },
    workspace: { type: 'string', value: 'DIR', description: 'the folder the file tools work in (default: the current directory)' },
    yes: { type: 'boolean', short: 'y', description: 'let writes run without asking (otherwise a terminal asks; without one they are denied)' },
    system: { type: 'string', value: 'TEXT', description: 'the system prompt (default: a short coding-agent prompt)' },
    'max-iterations': { type: 'string', value: 'N', description: 'model calls with tools per turn (default 25), then one without' },
    inspect: INSPECT_OPTION,
  },
  async run({ positionals, options }, io) {
    const mode = oneOf('run', 'mode', options.mode, ['text', 'json'] as const) ?? 'text';
    if (options.print && options.mode === 'json') throw usageError('tiller run: --print and --mode json each choose what stdout carries; give one');
    const window = positiveInteger('run', 'window', options.window);
    const maxIterations = positiveInteger('run', 'max-iterations', options['max-iterations']);
    const inspectAs = inspectView('run', options.inspect);
    // A new session (neither --session, --continue nor --resume) has no entry to fork from.
    if (options.fork !== undefined && options.session === undefined && !options.continue && !options.resume) {
      throw usageError(`tiller run: --fork ${options.fork} needs the session it forks from: give --session FILE, --continue or --resume`);
    }
    const compactorChoice = oneOf('run', 'compactor', options.compactor, COMPACTORS);
    const workspace = workspaceFolder(io.cwd, options.workspace);
    const model = chooseModel('run', { model: options.model, baseUrl: options['base-url'], window }, io.env);
    const compactor = compactorFor(compactorChoice, model);
    const tools = toolsFor(options.tools, workspace);
    const terminal = Boolean(io.stdin.isTTY) && !options.print && mode === 'text';
    let prompt = positionals.join(' ').trim() || undefined;
    if (!prompt && !terminal) {
      prompt = (await text(io.stdin)).trim() || undefined;
      if (!prompt) throw usageError('tiller run: no prompt: give it as arguments or on stdin (or run on a terminal)');
    }

    // From here on a reader that goes away (`| head -1`) stops the turn, and the session is closed before the program ends.
    const output = watchClosedOutput(io);
    const { path, isNew } = await runSessionFile({ session: options.session, continue: options.continue, resume: options.resume }, io);
    if (options.fork !== undefined && isNew) throw inputError(`tiller run: --fork ${options.fork}: ${path} does not exist, so it has no entry to fork from`);
    const existing = await readInputFile(path, 'session file').catch(() => undefined);
    if (existing && existing.trim() && sessionFormatOf(path, existing) === 'pi') {
      throw inputError(`${path}: a pi session; make a Tiller copy first with tiller import ${path}`);
    }
    const store = await JsonlStore.open(path, { create: true });
    // What the open skipped, as every command says it; a torn last line goes at the first write, which comes at once.
    sayReadWarnings(
      io,
      store.warnings.map((w) => (w.kind === 'torn_line' ? `${w.message}; it was cut off before the first write` : w.message)),
    );
    const session = createSessionLog(store);
    // Started before the agent, so the page follows the journal from its first line (earlier runs' segments included).
    let inspector: LiveInspection | undefined;
    try {
      inspector = inspectAs ? await inspectLive(inspectAs, journalPathFor(path), io, { command: 'run', on: options.print || mode === 'json' ? 'stderr' : 'stdout' }) : undefined;
    } catch (error) {
      await session.close();
      throw error;
    }
    const journal = fileJournal(journalPathFor(path));
    const settings = {
      model,
      tools,
      policy: fileToolPolicy({ askForWrites: !options.yes }),
      session,
      journal,
      systemPrompt: options.system ?? systemPromptFor(workspace),
      ...(compactor ? { compactor } : {}),
      ...(maxIterations ? { limits: { maxIterations } } : {}),
      ...inspector?.agentOptions,
    } satisfies AgentOptions;

    // The view shows the machine's state; the agent it reads is made just below, with the view subscribed.
    const shown: { agent?: Agent } = {};
    const view =
      mode === 'json'
        ? Object.assign(jsonView(io.stdout), { finish: () => undefined })
        : options.print
          ? undefined
          : turnView({ stream: io.stdout, style: io.out, state: () => shown.agent?.snapshot.value, window: model.contextWindow });
    // Read warnings go to stderr (said here), not into the turn's view on stdout; --mode json keeps every event.
    const listener: AgentListener | undefined =
      view && mode === 'text'
        ? (event) => {
            if (!isReadWarning(event)) view(event);
          }
        : view;
    const fork = options.fork === undefined ? undefined : { entry: options.fork, session: options.session ?? path };
    const agent = await startAgent(settings, fork, listener).catch(async (error: unknown) => {
      await session.close();
      await inspector?.close();
      throw error;
    });
    shown.agent = agent;
    // The journal was read as the agent started: a line whose write was cut short is named by its file and line.
    sayReadWarnings(io, tornJournalWarnings(journalPathFor(options.session ?? path), journal.torn ?? []));
    if (mode === 'text' && !options.print) io.stdout.write(`${io.out.dim(`session ${path} · model ${model.id}`)}\n`);

    // Without a terminal nobody can answer an approval: writes are denied with a reason the model reads.
    if (!terminal && !options.yes) {
      agent.subscribe((event) => {
        if (event.type !== 'approval.requested') return;
        if (mode === 'text') io.stderr.write(`${io.err.yellow(`denied ${event.calls.map(describeCall).join(', ')}: no terminal to ask (--yes allows writes)`)}\n`);
        agent.approve(event.calls.map((call) => ({ toolCallId: call.id, decision: 'deny' as const, rationale: 'No one is there to approve writes; the user can rerun with --yes to allow them.' })));
      });
    }

    try {
      let code: number;
      try {
        await agent.idle();
        code = terminal
          ? await interactive(agent, io, { initialPrompt: prompt, askApprovals: !options.yes, finishLine: () => view?.finish(), output, stoppedLine: (error) => storageFailure(error, path)?.message })
          : await oneShot(agent, prompt!, io, { print: Boolean(options.print), output });
      } catch (error) {
        throw storageFailure(error, path) ?? error;
      } finally {
        view?.finish();
        await agent.close();
        await session.close();
        output.stop();
      }
      // The one prompt is done and the session closed (free for another run); the page stays for a look at the turn.
      if (inspector && !terminal) await untilInterrupted(inspector, io);
      return code;
    } finally {
      await inspector?.close();
    }
  },
});

/**
 * The agent over the session: forked from an entry (a new branch), or resumed from the journal (a
 * journal whose last turn never ended means the last run was killed: that turn goes on first).
 * Either way a journal this shell cannot read is refused before anything is written.
 */
async function startAgent(
  settings: AgentOptions & { session: SessionLog; journal: JournalStore },
  fork: { entry: string; session: string } | undefined,
  listener: AgentListener | undefined,
): Promise<Agent> {
  const { session } = settings;
  if (fork === undefined) return resumeAgent({ ...settings, ...(listener ? { listener } : {}) });
  // The forked run appends a segment of this version to the journal. One written by another
  // version is refused here (a JournalError naming both versions), as resuming refuses it, before
  // anything is written.
  await settings.journal.read();
  session.branch(resolveEntryId(session.entries().map((e) => e.id), fork.entry, { command: 'run', option: 'fork', session: fork.session }));
  const agent = createAgent(settings);
  if (listener) agent.subscribe(listener);
  return agent;
}

/** A read warning the shell tells its listener: the session's (said at the open) or a torn journal line's. */
function isReadWarning(event: AgentEvent): boolean {
  return event.type === 'session.warning' || event.type === 'journal.warning';
}

/** One prompt without a terminal: Ctrl-C (SIGINT) aborts the turn, a second one exits at once. */
async function oneShot(agent: Agent, prompt: string, io: Io, options: { print: boolean; output: ClosedOutputWatch }): Promise<number> {
  if (options.output.closed) return ExitCode.failed;
  let interrupted = false;
  const stop = io.onInterrupt(() => {
    if (interrupted) process.exit(ExitCode.interrupted);
    interrupted = true;
    sendBeside(agent.abort('interrupted by the user (Ctrl-C)'), io);
  });
  // Nobody reads the answer any more: stop the turn, and the caller closes the session as after any turn.
  options.output.whenClosed(() => sendBeside(agent.abort(OUTPUT_CLOSED), io));
  let outcome: TurnOutcome;
  try {
    outcome = await agent.prompt(prompt);
  } finally {
    stop();
  }
  if (options.print) {
    const last = agent.session.path().findLast((e) => e.kind === 'message' && e.message.role === 'assistant');
    const answer = last?.kind === 'message' && last.message.role === 'assistant' ? last.message.content.filter((p) => p.type === 'text').map((p) => p.text).join('') : '';
    if (answer) io.stdout.write(`${answer}\n`);
  }
  if (outcome.status === 'completed') return ExitCode.ok;
  io.stderr.write(`${io.err.red(`tiller run: the turn ${describeOutcome(outcome)}`)}\n`);
  return interrupted ? ExitCode.interrupted : ExitCode.failed;
}
