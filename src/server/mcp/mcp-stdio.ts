/**
 * @module server/mcp: `releaseops mcp`: one env session over MCP stdio for agents (Claude Desktop, IDEs,
 * the MCP SDK). The SDK's stdio transport frames the messages; our dispatcher answers them, so stdio,
 * HTTP and WebSocket MCP behave the same. The episode starts when the server does.
 */
import type { Readable, Writable } from 'node:stream'
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js'
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js'
import type { EnvRegistry } from '../../core/registry/env-registry.js'
import { EnvHost } from '../env-host.js'
import { resetInput } from '../session/session-operations.js'
import { SessionStore } from '../session/session-store.js'
import type { ResetKwargs } from '../wire/wire-schemas.js'
import { dispatchJsonRpc, jsonRpcError, jsonRpcErrors } from './mcp-dispatcher.js'

export interface McpStdioOptions {
  registry: EnvRegistry
  envId: string
  reset: ResetKwargs | undefined
  input?: Readable
  output?: Writable
  /** Diagnostics (stdout belongs to the protocol). */
  log: (line: string) => void
}

export async function serveMcpStdio(options: McpStdioOptions): Promise<{ closed: Promise<void> }> {
  const host = new EnvHost({ registry: options.registry, envId: options.envId, isDefault: true })
  const store = new SessionStore({ maxSessions: 1, sessionTimeoutMs: 0 })
  const session = store.create(host, 'mcp')
  resetInput(session, session.reset(options.reset))
  const transport = new StdioServerTransport(options.input, options.output)
  let resolveClosed: () => void = () => {}
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve
  })
  transport.onmessage = (message) => {
    const response = dispatchJsonRpc(message, { host, store, session })
    if (response !== undefined) void transport.send(response as JSONRPCMessage)
  }
  transport.onerror = (error) => {
    // A line that is not JSON, or JSON that is not JSON-RPC, still gets its JSON-RPC answer.
    const reply =
      error instanceof SyntaxError
        ? jsonRpcError(null, jsonRpcErrors.parse, `Parse error: ${error.message.slice(0, 200)}`)
        : error.name === 'ZodError'
          ? jsonRpcError(null, jsonRpcErrors.invalidRequest, 'Invalid Request: not a JSON-RPC 2.0 message.')
          : undefined
    if (reply) void transport.send(reply as JSONRPCMessage)
    else options.log(`releaseops mcp: ${error.message}\n`)
  }
  transport.onclose = () => {
    store.closeAll('client_closed')
    resolveClosed()
  }
  const input = options.input ?? process.stdin
  input.once('end', () => void transport.close())
  await transport.start()
  return { closed }
}
