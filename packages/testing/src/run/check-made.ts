import { isCompactor } from '@tiller/compaction';
import type { Tool } from '@tiller/shell';
import { describeValue } from '../describe-value.js';
import type { AgentUnderTest, MakeAgent } from './path-run.js';

/** The run gives these; one that makeAgent returns would be replaced without a word. */
const GIVEN_BY_THE_RUN = ['model', 'session', 'journal'] as const;

const isTool = (value: unknown): value is Tool => (value as Tool | null | undefined)?.kind === 'tiller.tool';

/** What a slip handed the kit, in a few words; a tool is named as one (the list was meant). */
const got = (value: unknown) => (isTool(value) ? 'a tool' : describeValue(value));

export function checkMakeAgent(makeAgent: unknown): asserts makeAgent is MakeAgent {
  if (typeof makeAgent !== 'function') throw new TypeError(`runPath: makeAgent must be a function (world) => createAgent's options, got ${got(makeAgent)}`);
}

/**
 * The tools given to `world.tools` (or returned by makeAgent, `where`), checked before the run
 * wraps them: wrapping junk fails deep inside with a TypeError that names nothing of the user's.
 */
export function checkTools(tools: unknown, where: string): asserts tools is readonly Tool[] {
  if (!Array.isArray(tools)) {
    if (where === 'world.tools') throw new TypeError(`runPath: world.tools takes the list of your tools, got ${got(tools)}${isTool(tools) ? '; give it a list: world.tools([tool])' : ''}`);
    throw new TypeError(`runPath: ${where} tools that are not a list of tools made by defineTool: got ${got(tools)}`);
  }
  const junk = tools.findIndex((t) => !isTool(t));
  if (junk >= 0) throw new TypeError(`runPath: ${where === 'world.tools' ? 'world.tools got' : where} tools[${junk}], which is not a tool made by defineTool: got ${got(tools[junk])}`);
}

/**
 * What makeAgent returned, checked before it is taken apart: a mistake here is the user's, so it
 * is said as theirs. The options the run wraps or extends (tools, compactor, limits) are checked
 * here too: once wrapped, createAgent would no longer see what was wrong with them.
 */
export function checkMade(made: unknown): AgentUnderTest {
  if (typeof (made as PromiseLike<unknown> | undefined)?.then === 'function') {
    throw new TypeError("runPath: makeAgent returned a Promise; return createAgent's options themselves (makeAgent is called synchronously, once per run)");
  }
  if (typeof made !== 'object' || made === null || Array.isArray(made)) {
    const what = made === null ? 'null' : Array.isArray(made) ? 'an array' : typeof made === 'undefined' ? 'undefined' : `a ${typeof made}`;
    throw new TypeError(`runPath: makeAgent must return createAgent's options (an object), got ${what}`);
  }
  const options = made as Record<string, unknown>;
  // Left undefined (options spread from a shared object) they give nothing, so they are fine.
  const given = GIVEN_BY_THE_RUN.filter((key) => options[key] !== undefined);
  if (given.length > 0) {
    throw new TypeError(`runPath: makeAgent returned ${given.join(', ')}; the run gives the model, the session and the journal, so leave them out`);
  }
  if (options.tools !== undefined) checkTools(options.tools, 'makeAgent returned');
  const { compactor, limits } = options;
  if (compactor !== undefined && !isCompactor(compactor)) {
    throw new TypeError(`runPath: makeAgent returned a compactor that is none (an object with a name and maybeCompact(acc, ctx, opts)): got ${got(compactor)}`);
  }
  if (limits !== undefined && (typeof limits !== 'object' || limits === null || Array.isArray(limits))) {
    throw new TypeError(`runPath: makeAgent returned limits that are not an object of limits (maxRetries, …): got ${got(limits)}`);
  }
  return made as AgentUnderTest;
}
