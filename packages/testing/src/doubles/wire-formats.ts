import type { ServerFault, StreamScript, WireFormat } from './openai-compatible-server.js';

// What each provider sends on the wire: its error bodies and its streamed events, from one script.

export function faultReply(fault: ServerFault, format: WireFormat): { status: number; headers?: Record<string, string>; body: unknown } {
  const status = FAULT_STATUS[fault];
  const headers = fault === 'rate_limited' ? { 'retry-after': '0' } : undefined;
  const [type, message] = format === 'openai' ? OPENAI_ERRORS[fault] : ANTHROPIC_ERRORS[fault];
  const body =
    format === 'openai'
      ? { error: { message, type, ...(fault === 'context_length' ? { code: 'context_length_exceeded' } : {}) } }
      : { type: 'error', error: { type, message } };
  return { status, ...(headers ? { headers } : {}), body };
}

const FAULT_STATUS: Record<ServerFault, number> = { rate_limited: 429, server_error: 503, overloaded: 529, context_length: 400, unauthorized: 401 };

/** Error type and message, as each provider writes them. */
const OPENAI_ERRORS: Record<ServerFault, [string, string]> = {
  rate_limited: ['rate_limit_exceeded', 'Rate limit reached'],
  server_error: ['server_error', 'The server is overloaded'],
  overloaded: ['server_error', 'The engine is currently overloaded, please try again later'],
  context_length: ['invalid_request_error', "This model's maximum context length is 8192 tokens. However, your messages resulted in 9120 tokens."],
  unauthorized: ['invalid_request_error', 'Incorrect API key provided'],
};
const ANTHROPIC_ERRORS: Record<ServerFault, [string, string]> = {
  rate_limited: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  server_error: ['api_error', 'Internal server error'],
  overloaded: ['overloaded_error', 'Overloaded'],
  context_length: ['invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum'],
  unauthorized: ['authentication_error', 'invalid x-api-key'],
};

/** The stream as SSE events, one string each, in the route's format. */
export function sseEvents(script: StreamScript, format: WireFormat): string[] {
  if (format === 'openai') return openAIChunks(script).map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`);
  return anthropicEvents(script).map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
}

function openAIChunks(script: StreamScript): unknown[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'local-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const out: unknown[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of split(script.reasoning)) out.push(chunk({ reasoning_content: piece }));
  for (const piece of split(script.text)) out.push(chunk({ content: piece }));
  for (const [index, call] of (script.toolCalls ?? []).entries()) {
    out.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const piece of split(JSON.stringify(call.args))) out.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  }
  out.push(chunk({}, script.finishReason ?? (script.toolCalls?.length ? 'tool_calls' : 'stop')));
  if (script.usage) {
    const { prompt_tokens, completion_tokens, cached_tokens } = script.usage;
    out.push({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'local-model',
      choices: [],
      usage: {
        prompt_tokens,
        completion_tokens,
        total_tokens: prompt_tokens + completion_tokens,
        ...(cached_tokens ? { prompt_tokens_details: { cached_tokens } } : {}),
      },
    });
  }
  return out;
}

/** Anthropic's messages stream: message_start, a block per part (start, deltas, stop), message_delta, message_stop. */
function anthropicEvents(script: StreamScript): Array<{ type: string } & Record<string, unknown>> {
  const usage = script.usage ?? { prompt_tokens: 0, completion_tokens: 0 };
  const out: Array<{ type: string } & Record<string, unknown>> = [
    {
      type: 'message_start',
      message: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        model: 'local-model',
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.prompt_tokens, output_tokens: 1, cache_read_input_tokens: usage.cached_tokens ?? 0 },
      },
    },
  ];
  let index = 0;
  const block = (start: Record<string, unknown>, deltas: Array<Record<string, unknown>>) => {
    out.push({ type: 'content_block_start', index, content_block: start });
    for (const delta of deltas) out.push({ type: 'content_block_delta', index, delta });
    out.push({ type: 'content_block_stop', index });
    index++;
  };
  if (script.redactedThinking) block({ type: 'redacted_thinking', data: script.redactedThinking }, []);
  if (script.reasoning) {
    block({ type: 'thinking', thinking: '', signature: '' }, [
      ...split(script.reasoning).map((thinking) => ({ type: 'thinking_delta', thinking })),
      { type: 'signature_delta', signature: 'sig-1' },
    ]);
  }
  if (script.text) block({ type: 'text', text: '' }, split(script.text).map((text) => ({ type: 'text_delta', text })));
  for (const call of script.toolCalls ?? []) {
    block({ type: 'tool_use', id: call.id, name: call.name, input: {} }, split(JSON.stringify(call.args)).map((partial_json) => ({ type: 'input_json_delta', partial_json })));
  }
  const finish = script.finishReason ?? (script.toolCalls?.length ? 'tool_calls' : 'stop');
  const stopReason = finish === 'tool_calls' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn';
  out.push({ type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.completion_tokens } });
  out.push({ type: 'message_stop' });
  return out;
}

function split(text: string | undefined, size = 5): string[] {
  if (!text) return [];
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
