// A local fake of an OpenAI-compatible chat completions server (llama.cpp / Ollama / vLLM style), scripted.
import {
  startScriptedServer,
  type FakeResponse,
  type FakeServer,
  type FakeStep,
  type RecordedRequest,
} from './fake-anthropic.js'

export { type FakeServer, type RecordedRequest }

/** Starts the fake; the provider's base URL is `${server.url}/v1`. */
export function startFakeOpenAi(script: FakeStep[]): Promise<FakeServer> {
  return startScriptedServer(script)
}

export interface FakeCompletionUsage {
  prompt?: number
  completion?: number
  cached?: number
}

let ids = 0

function completion(
  request: RecordedRequest,
  message: Record<string, unknown>,
  finishReason: string,
  usage: FakeCompletionUsage | null,
): FakeResponse {
  return {
    body: {
      id: `chatcmpl-${++ids}`,
      object: 'chat.completion',
      model: request.body?.model,
      choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason }],
      ...(usage === null
        ? {}
        : {
            usage: {
              prompt_tokens: usage.prompt ?? 100,
              completion_tokens: usage.completion ?? 20,
              total_tokens: (usage.prompt ?? 100) + (usage.completion ?? 20),
              ...(usage.cached === undefined
                ? {}
                : { prompt_tokens_details: { cached_tokens: usage.cached } }),
            },
          }),
    },
  }
}

/** Builders for chat completion answers. `arguments` may be an object (serialised) or a raw string (sent as is). */
export const openAiReply = {
  tools(
    calls: { name: string; arguments: unknown; id?: string }[],
    usage: FakeCompletionUsage | null = {},
    text: string | null = null,
  ): FakeStep {
    return (request) => {
      const toolCalls = calls.map((call) => ({
        id: call.id ?? `call_${++ids}`,
        type: 'function',
        function: {
          name: call.name,
          arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
        },
      }))
      return completion(request, { content: text, tool_calls: toolCalls }, 'tool_calls', usage)
    }
  },
  text(text: string, usage: FakeCompletionUsage | null = {}, finishReason = 'stop'): FakeStep {
    return (request) => completion(request, { content: text }, finishReason, usage)
  },
  error(status: number, headers: Record<string, string> = {}): FakeResponse {
    return { status, headers, body: { error: { message: `fake error ${status}`, type: 'server_error' } } }
  },
  hang(): FakeResponse {
    return { hang: true }
  },
}

/** The role:'tool' messages that follow the last assistant message of a recorded request. */
export function toolMessagesOf(request: RecordedRequest): { tool_call_id: string; content: string }[] {
  const messages = request.body.messages as { role: string; tool_call_id?: string; content: string }[]
  const out: { tool_call_id: string; content: string }[] = []
  for (let i = messages.length - 1; i >= 0 && messages[i]?.role === 'tool'; i -= 1) {
    const m = messages[i] as { tool_call_id: string; content: string }
    out.unshift({ tool_call_id: m.tool_call_id, content: m.content })
  }
  return out
}
