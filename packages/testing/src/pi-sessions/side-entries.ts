import { code, token } from './generated-text.js';
import { appendEntry, appendMessage, type SessionState } from './session-state.js';
import { MODELS, THINKING_LEVELS } from './vocabulary.js';

/** A `!command` the user ran between turns: its output (cancelled, or cut short, now and then). */
export function appendBashExecution(state: SessionState): void {
  const { random } = state;
  const command = random.pick(['ls', 'git status', 'npm run build', 'cat .env', 'sleep 30']);
  const cancelled = command === 'sleep 30';
  const output = cancelled ? '' : code(random, state.codeLines, random.int(1, 30));
  const truncated = !cancelled && random.chance(0.2);
  appendMessage(
    state,
    {
      role: 'bashExecution',
      command,
      output,
      exitCode: cancelled ? undefined : random.pick([0, 0, 1]),
      cancelled,
      truncated,
      ...(truncated ? { fullOutputPath: `/tmp/pi-bash-${token(random, 8)}.log` } : {}),
      // Newer pi can keep a command out of the model's context (`!!command`).
      ...(state.options.format === 3 && command === 'cat .env' ? { excludeFromContext: true } : {}),
    },
    false,
    command.length + output.length,
  );
  state.counts.bashExecutions += 1;
}

/** The user changes the thinking level; at `off` the model stops thinking. */
export function appendThinkingLevelChange(state: SessionState): void {
  const level = state.random.pick(THINKING_LEVELS);
  state.thinking = level !== 'off';
  appendEntry(state, { type: 'thinking_level_change', thinkingLevel: level }, false);
  state.counts.thinkingLevelChanges += 1;
}

/** The user switches to another model, maybe of another provider. */
export function appendModelChange(state: SessionState): void {
  state.model = state.random.pick(MODELS.filter((m) => m !== state.model));
  appendEntry(state, { type: 'model_change', provider: state.model.provider, modelId: state.model.model }, false);
  state.counts.modelChanges += 1;
}
