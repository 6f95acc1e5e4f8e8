import { existsSync, statSync } from 'node:fs';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WindowManager } from '@tiller/compaction';
import { createSessionLog, JsonlStore } from '@tiller/session';
import { createAgent, fileJournal, journalPathFor } from '@tiller/shell';
import { scriptedModel } from '@tiller/testing';
import { OUTPUT_CLOSED, watchClosedOutput } from '../cli/closed-output.js';
import { defineCommand } from '../cli/command.js';
import { ExitCode, inputError, usageError } from '../cli/errors.js';
import { whyNotWritten } from '../cli/write-failure.js';
import { positiveInteger, wholeNumber } from '../cli/parse-command-line.js';
import { DEMO_FOLLOW_UP, DEMO_PROMPT, DEMO_SCRIPT, DEMO_STEER, demoSummarizer } from '../demo/script.js';
import { writeDemoWorkspace } from '../demo/workspace.js';
import { replayFiles } from '../sessions/replay-files.js';
import { sendBeside } from '../run/send-beside.js';
import { fileToolPolicy, fileTools } from '../tools/file-tools.js';
import { describeCall, formatTokens, shorten } from '../view/describe.js';
import { turnView } from '../view/turn-view.js';
import { inspectLive } from '../inspect/inspect-live.js';
import { INSPECT_OPTION, inspectView } from '../inspect/inspect-option.js';
import { untilInterrupted } from '../inspect/serve-journal.js';

const DEFAULT_WINDOW = 2_000;

export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'run a scripted coding task through the real shell, then replay its journal (no network, no key)',
  args: '',
  positionals: { min: 0, max: 0 },
  description: [
    'A scripted model plays a coding agent adding an option to a small project: it lists, reads and',
    'edits real files in a temporary workspace, through the real shell, into a JSONL session and its',
    'journal. The window is small, so compaction happens inside the tool loop; a steering message',
    'arrives mid-run, a follow-up is queued, and every write asks for approval (the demo approves).',
    'At the end the journal is replayed with no model call: "replay: identical" or the divergence.',
  ].join('\n'),
  options: {
    dir: { type: 'string', value: 'DIR', description: 'write the workspace, session and journal here (an empty or new folder; default: a new temporary folder)' },
    delay: { type: 'string', value: 'MS', description: 'pause between streamed chunks, in milliseconds (default 12; 0 for none)' },
    window: { type: 'string', value: 'N', description: `the model's context window in tokens (default ${DEFAULT_WINDOW})` },
    inspect: INSPECT_OPTION,
  },
  async run({ options }, io) {
    const delay = wholeNumber('demo', 'delay', options.delay, 0) ?? 12;
    const window = positiveInteger('demo', 'window', options.window) ?? DEFAULT_WINDOW;
    const inspectAs = inspectView('demo', options.inspect);
    if (window < 1_200) throw usageError(`tiller demo: --window must be at least 1200 tokens for the demo's task, got ${window}`);
    const dir = options.dir ? resolve(io.cwd, options.dir) : await mkdtemp(join(tmpdir(), 'tiller-demo-'));
    const sessionFile = join(dir, 'session.jsonl');
    if (existsSync(sessionFile)) throw usageError(`tiller demo: ${dir} already holds a demo session; give an empty or new folder`);
    const workspace = join(dir, 'workspace');
    await mkdir(workspace, { recursive: true }).catch((error: unknown) => {
      throw inputError(`tiller demo: --dir ${dir}: ${isFile(dir) ? 'a file, not a folder' : whyNotWritten(dir, error)}`);
    });
    await writeDemoWorkspace(workspace);

    const output = watchClosedOutput(io);
    const { out } = io;
    const say = (text: string) => io.stdout.write(`${text}\n`);
    say(out.bold('Tiller demo: a scripted coding agent, through the real shell, over real files.'));
    say(out.dim(`workspace ${workspace}`));
    say(out.dim(`session   ${sessionFile} (journal beside it)`));
    say(out.dim(`window    ${formatTokens(window)} tokens; compactor: summarize`));
    say('');
    say(`${out.bold('» prompt:')} ${DEMO_PROMPT}`);

    // Started before the run, the inspector follows the journal from its first line.
    const inspector = inspectAs ? await inspectLive(inspectAs, journalPathFor(sessionFile), io, { command: 'demo', on: 'stdout' }) : undefined;
    try {
      const session = createSessionLog(await JsonlStore.open(sessionFile, { create: true }));
      const journal = fileJournal(journalPathFor(sessionFile));
      const model = scriptedModel(
        DEMO_SCRIPT.map((step) => (typeof step === 'function' || typeof step === 'string' ? step : { ...step, partDelayMs: delay, chunkSize: 6 })),
        { id: 'scripted/coding-agent', contextWindow: window },
      );
      const agent = createAgent({
        model,
        tools: fileTools(workspace),
        policy: fileToolPolicy({ askForWrites: true }),
        session,
        journal,
        systemPrompt: 'You are a careful coding agent. Read before you edit; keep changes small; say what you did.',
        compactor: WindowManager({
          strategy: 'summarize',
          summarizer: demoSummarizer,
          contextWindow: window,
          reserveTokens: Math.floor(window * 0.2),
          keepRecentTokens: Math.floor(window * 0.25),
        }),
        limits: { maxIterations: 12 },
        ...inspector?.agentOptions,
      });

      const view = turnView({ stream: io.stdout, style: out, state: () => agent.snapshot.value, window, showStates: true });
      agent.subscribe(view);
      let batches = 0;
      let modelCalls = 0;
      agent.subscribe((event) => {
        switch (event.type) {
          case 'tools.started':
            batches += 1;
            if (batches === 2) {
              view.finish();
              say(`${out.bold('» steer:')} ${DEMO_STEER}`);
              sendBeside(agent.steer(DEMO_STEER), io);
            }
            break;
          case 'llm.started':
            modelCalls += 1;
            if (modelCalls === 5) {
              view.finish();
              say(`${out.bold('» follow-up queued:')} ${DEMO_FOLLOW_UP}`);
              sendBeside(agent.followUp(DEMO_FOLLOW_UP), io);
            }
            break;
          case 'approval.requested':
            say(out.green(`  approved: ${event.calls.map(describeCall).join(', ')} (the demo says yes to every write)`));
            agent.approve(event.calls.map((call) => ({ toolCallId: call.id, decision: 'allow' as const })));
            break;
          default:
            break;
        }
      });

      // A reader that went away (`tiller demo | head`) stops the turn; the session is closed all the same.
      output.whenClosed(() => sendBeside(agent.abort(OUTPUT_CLOSED), io));
      let outcome;
      try {
        outcome = output.closed ? undefined : await agent.prompt(DEMO_PROMPT);
      } finally {
        output.stop();
        view.finish();
        await agent.close();
        await session.close();
      }
      if (outcome === undefined || output.closed) return ExitCode.failed;

      say('');
      say(out.bold('Replaying the journal through the core, with no model call:'));
      const replay = await replayFiles(journalPathFor(sessionFile), sessionFile);
      const inputs = replay.segments.reduce((n, s) => n + s.replay.inputs, 0);
      const identical = !replay.diverged;
      if (identical) say(out.green(`replay: identical (${inputs} inputs, the same effects; ${model.requests.length} model calls were made, none replayed)`));
      else {
        const d = replay.diverged!.replay.divergence!;
        say(out.red(`replay: diverged at input ${d.seq} (${d.inputType}): recorded [${d.expected.join('; ')}], replayed [${d.actual.join('; ')}] (tiller replay says more)`));
      }
      say('');
      say(out.dim(`the session holds ${session.size} entries; the model saw ${agent.snapshot.context.view.length} messages at the end (nothing was deleted).`));
      say(out.dim(`look closer:  tiller show ${sessionFile}`));
      say(out.dim(`              tiller replay ${journalPathFor(sessionFile)}`));
      const completed = outcome.status === 'completed';
      if (!completed) say(out.red(`the turn did not complete: ${shorten(JSON.stringify(outcome), 100)}`));
      if (inspector) await untilInterrupted(inspector, io);
      return completed && identical ? ExitCode.ok : ExitCode.failed;
    } finally {
      // Stopped once Ctrl-C was pressed, or at once when the demo failed.
      await inspector?.close();
    }
  },
});

function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false; // a file further up the path: whyNotWritten names it
  }
}
