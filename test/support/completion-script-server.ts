/**
 * A model double that says exactly what it is told: an OpenAI-compatible server on loopback whose every
 * answer is the next text of a script, chosen by the conversation's user message and its turn (the tool
 * results so far). `/v1/completions` returns the scripted text verbatim (a raw generation, markup and all);
 * `/v1/chat/completions` returns the scripted native message (content, reasoning, tool calls) as vLLM's
 * parsers would. The last scripted turn repeats when the loop asks for more. For the answer-contract corpus,
 * where the text must be byte for byte what a model generated.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface NativeTurn {
  content: string | null
  reasoning_content?: string
  tool_calls?: { name: string; arguments: string }[]
}

export interface CompletionScript {
  /** The user message's text (the row prompt) → the turns the model speaks, in order. */
  turns: (user: string) => readonly (string | NativeTurn)[] | undefined
}

export interface CompletionScriptServer {
  url: string
  requests: number
  close(): Promise<void>
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  response.end(text)
}

async function readBody(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>
}

/** The user message of a raw ChatML prompt, and how many tool results it holds. */
function fromPrompt(prompt: string): { user: string; turn: number } {
  const start = prompt.indexOf('<|im_start|>user\n') + '<|im_start|>user\n'.length
  const user = prompt.slice(start, prompt.indexOf('<|im_end|>', start))
  return { user, turn: prompt.split('<tool_response>').length - 1 }
}

function fromMessages(messages: { role: string; content?: unknown }[]): { user: string; turn: number } {
  const user = messages.find((message) => message.role === 'user')?.content
  return { user: typeof user === 'string' ? user : '', turn: messages.filter((message) => message.role === 'tool').length }
}

export async function startCompletionScriptServer(script: CompletionScript): Promise<CompletionScriptServer> {
  let requests = 0
  const server = createServer((request, response) => {
    void (async () => {
      if (request.method === 'GET' && request.url === '/v1/models')
        return send(response, 200, { object: 'list', data: [{ id: 'script', object: 'model', owned_by: 'test' }] })
      const body = await readBody(request)
      requests++
      const where =
        request.url === '/v1/completions'
          ? fromPrompt(String(body.prompt))
          : fromMessages(body.messages as { role: string; content?: unknown }[])
      const turns = script.turns(where.user.trim())
      if (!turns || turns.length === 0) return send(response, 404, { error: { message: 'no script for this conversation' } })
      const turn = turns[Math.min(where.turn, turns.length - 1)] as string | NativeTurn
      if (request.url === '/v1/completions') {
        if (typeof turn !== 'string') return send(response, 400, { error: { message: 'a native turn on /v1/completions' } })
        return send(response, 200, {
          id: 'cmpl-script',
          object: 'text_completion',
          model: 'script',
          choices: [{ index: 0, text: turn, finish_reason: 'stop' }],
        })
      }
      if (typeof turn === 'string') return send(response, 400, { error: { message: 'a text turn on /v1/chat/completions' } })
      const message: Record<string, unknown> = { role: 'assistant', content: turn.content }
      if (turn.reasoning_content !== undefined) message.reasoning_content = turn.reasoning_content
      if (turn.tool_calls)
        message.tool_calls = turn.tool_calls.map((call, index) => ({
          id: `chatcmpl-tool-${where.turn}-${index}`,
          type: 'function',
          function: call,
        }))
      const finish = turn.tool_calls ? 'tool_calls' : 'stop'
      return send(response, 200, {
        id: 'chatcmpl-script',
        object: 'chat.completion',
        model: 'script',
        choices: [{ index: 0, message, finish_reason: finish }],
      })
    })().catch((error: unknown) => send(response, 500, { error: { message: String(error) } }))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
