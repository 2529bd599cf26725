/** @module cli: `releaseops serve`: the OpenEnv-compatible env server (HTTP, WebSocket, MCP). */
import cluster from 'node:cluster'
import { type CommandUnknownOpts, InvalidArgumentError, Option } from '@commander-js/extra-typings'
import { type InputIssue, InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { defaultEnvId, envRegistry } from '../../envs/index.js'
import { buildServer } from '../../server/build-server.js'
import {
  clusterForwarder,
  runClusterPrimary,
  serveForwardedRequests,
  workerIndexVariable,
} from '../../server/cluster/run-cluster.js'
import { isLoopbackHost, parseServerOptions, type ServerOptions, serverLogLevels } from '../../server/server-options.js'
import { listeningLine, startServer } from '../../server/start-server.js'
import type { OptsOf } from '../opts-of.js'
import { parseInteger, parsePositiveInteger } from '../parse-options.js'

function parseSeconds(value: string): number {
  const parsed = Number(value)
  if (value.trim() === '' || !Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError('expected seconds ≥ 0')
  return parsed
}

const listOf = (value: string | undefined) =>
  value === undefined || value.trim() === ''
    ? undefined
    : value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)

/** Flags win over environment variables (HOST, PORT, RELEASEOPS_TOKEN, as containers set them). */
/** A server option's key as the flag that sets it (`operatorToken` → `--operator-token`). */
function flagOf(key: string): string {
  const name = key.split('.')[0] ?? key
  if (name === 'defaultEnvId') return '--env'
  return `--${name.replace(/(Bytes|S)$/, '').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
}

/** The options, refused with the flags' own names (one line per issue, printed once). */
function serverOptionsFrom(flags: ServeFlags): ServerOptions {
  try {
    return parseServerOptionsFrom(flags)
  } catch (error) {
    if (!InvalidInputError.isInstance(error) || error.code !== 'invalid_server_options') throw error
    const issues = ((error.details?.issues ?? []) as InputIssue[]).map((issue) => ({ ...issue, path: flagOf(issue.path) }))
    throw new InvalidInputError({
      code: 'invalid_server_options',
      ...(issues[0] ? { path: issues[0].path } : {}),
      message: issues.map((issue) => issue.message).join('; ') || error.message,
      issues: issues.length > 1 ? issues : [],
    })
  }
}

function parseServerOptionsFrom(flags: ServeFlags): ServerOptions {
  const environment = process.env
  return parseServerOptions({
    host: flags.host ?? environment.HOST,
    port: flags.port ?? (environment.PORT === undefined ? undefined : Number(environment.PORT)),
    defaultEnvId: flags.env,
    maxSessions: flags.maxSessions,
    maxSessionsPerClient: flags.maxSessionsPerClient,
    maxConnectionsPerClient: flags.maxConnectionsPerClient,
    headerTimeoutS: flags.headerTimeout,
    bodyTimeoutS: flags.bodyTimeout,
    idleTimeoutS: flags.idleTimeout,
    shutdownGraceS: flags.shutdownGrace,
    allowEndpoints:
      flags.allowEndpoint?.flatMap((value) => listOf(value) ?? []) ?? listOf(environment.RELEASEOPS_ALLOW_ENDPOINTS),
    loopbackEndpoints: flags.loopbackEndpoints,
    sessionTimeoutS: flags.sessionTimeout,
    workers: flags.workers,
    token: flags.token ?? (environment.RELEASEOPS_TOKEN || undefined),
    operatorToken: flags.operatorToken ?? (environment.RELEASEOPS_OPERATOR_TOKEN || undefined),
    allowedHosts: listOf(flags.allowedHosts ?? environment.RELEASEOPS_ALLOWED_HOSTS),
    allowedOrigins: listOf(flags.allowedOrigins ?? environment.RELEASEOPS_ALLOWED_ORIGINS),
    bodyLimitBytes: flags.bodyLimit,
    maxBatchSize: flags.maxBatchSize,
    maxBatchReplyBytes: flags.maxBatchReply,
    maxFrameBytes: flags.maxFrame,
    maxModelReplyBytes: flags.maxModelReply,
    pingIntervalS: flags.pingInterval,
    pingTimeoutS: flags.pingTimeout,
    logLevel: flags.logLevel,
  })
}

async function serve(flags: ServeFlags): Promise<void> {
  const options = serverOptionsFrom(flags)
  if (options.defaultEnvId !== undefined) envRegistry.get(options.defaultEnvId)
  const workerIndex = process.env[workerIndexVariable]
  if (cluster.isPrimary && options.workers > 1) {
    if (!isLoopbackHost(options.host) && options.token === undefined) warnOpen(options.host)
    await runClusterPrimary({
      workers: options.workers,
      host: options.host,
      port: options.port,
      onListening: (url) => process.stdout.write(`releaseops serve: listening on ${url} (${options.workers} workers)\n`),
      log: (line) => process.stderr.write(line),
      stopAfterMs: (options.shutdownGraceS + 5) * 1000,
    })
    return
  }
  if (cluster.isWorker && workerIndex !== undefined) return serveWorker(options, Number(workerIndex))
  const server = await startServer({ options, registry: envRegistry, registryDefaultEnvId: defaultEnvId })
  stopOnSignals(() => server.close())
  if (!isLoopbackHost(options.host) && options.token === undefined) warnOpen(options.host)
  process.stdout.write(listeningLine({ url: server.url, context: server.context, workers: 1 }))
}

/** A cluster worker: its app does not listen; the primary hands it connections. */
async function serveWorker(options: ServerOptions, index: number): Promise<void> {
  const { app } = await buildServer({
    options,
    registry: envRegistry,
    registryDefaultEnvId: defaultEnvId,
    workerIndex: index,
    forward: clusterForwarder(),
  })
  await app.ready()
  stopOnSignals(() => app.close())
  serveForwardedRequests({ app, index })
}

function stopOnSignals(close: () => Promise<unknown>): void {
  const stop = () => {
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

function warnOpen(host: string): void {
  process.stderr.write(
    `releaseops serve: warning: listening on ${host} without a token; env play is open to anyone who can reach it (set --token or RELEASEOPS_TOKEN) and operator routes answer loopback peers only (set --operator-token).\n`,
  )
}

export function registerServeCommand(program: CommandUnknownOpts): void {
  declareServe(program).action(serve)
}

function declareServe(program: CommandUnknownOpts) {
  return program
    .command('serve')
    .description('Serve every registered env over OpenEnv HTTP/WebSocket, a session API and MCP (default env also at /).')
    .option('--host <host>', 'address to bind (env HOST; default 127.0.0.1, loopback only)')
    .option('--port <port>', 'port (env PORT; default 8000; 0 picks a free one)', parseInteger)
    .option('--env <id>', `env served at the root (default ${defaultEnvId})`)
    .option('--max-sessions <n>', 'concurrent sessions per process (default 4096)', parsePositiveInteger)
    .option(
      '--max-sessions-per-client <n>',
      "one client's share of the sessions (an address, an IPv6 /64); over it: 429 too_many_sessions (default 2560)",
      parsePositiveInteger,
    )
    .option('--session-timeout <seconds>', 'close sessions idle this long; 0 disables the reaper (default 900)', parseSeconds)
    .option(
      '--max-connections-per-client <n>',
      'HTTP connections one client may hold open; over it: 429 too_many_connections (default 256)',
      parsePositiveInteger,
    )
    .option('--header-timeout <seconds>', 'request line and headers must arrive within this; else 408 (default 10)', parseSeconds)
    .option(
      '--body-timeout <seconds>',
      'the whole request body must arrive within this after the headers, however it trickles; else 408 (default 30)',
      parseSeconds,
    )
    .option('--idle-timeout <seconds>', 'close a kept-alive connection idle this long (default 72)', parseSeconds)
    .option(
      '--shutdown-grace <seconds>',
      'on SIGTERM, wait this long for in-flight messages before closing WebSockets (1001) and exiting (default 10)',
      parseSeconds,
    )
    .option(
      '--allow-endpoint <host[:port]>',
      'an outbound endpoint (eval model, vLLM server, Hub) allowed although private, link-local or metadata; repeatable, comma-separated (env RELEASEOPS_ALLOW_ENDPOINTS)',
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .option('--no-loopback-endpoints', 'refuse loopback outbound endpoints too (allowed by default: a local vLLM)')
    .option('--workers <n>', 'worker processes (node cluster; sessions stay on their process)', parsePositiveInteger)
    .option('--token <token>', 'bearer token for env play (env RELEASEOPS_TOKEN); also the operator token unless one is given')
    .option(
      '--operator-token <token>',
      'bearer token for operator routes: outputs, training, counters, eval jobs, Hub (env RELEASEOPS_OPERATOR_TOKEN)',
    )
    .option(
      '--allowed-hosts <names>',
      'comma-separated Host names served besides loopback names and IPs, *.suffix patterns, * for any (env RELEASEOPS_ALLOWED_HOSTS)',
    )
    .option(
      '--allowed-origins <origins>',
      'comma-separated browser origins allowed on WebSockets and /mcp besides same-origin (env RELEASEOPS_ALLOWED_ORIGINS)',
    )
    .option('--body-limit <bytes>', 'largest HTTP body (default 1 MiB)', parsePositiveInteger)
    .option('--max-frame <bytes>', 'largest WebSocket frame (default 1 MiB)', parsePositiveInteger)
    .option(
      '--max-batch-size <n>',
      'most requests in one JSON-RPC batch; a bigger one is refused (default 100)',
      parsePositiveInteger,
    )
    .option(
      '--max-batch-reply <bytes>',
      'a batch reply stops growing here; the rest are answered "not run" (default 4 MiB)',
      parsePositiveInteger,
    )
    .option(
      '--max-model-reply <bytes>',
      'largest reply an eval job reads from a model endpoint; a bigger one fails the job (default 16 MiB)',
      parsePositiveInteger,
    )
    .option('--ping-interval <seconds>', 'WebSocket ping interval (default 20)', parseSeconds)
    .option('--ping-timeout <seconds>', 'drop a connection silent this long (default 120)', parseSeconds)
    .addOption(new Option('--log-level <level>', 'server log level (default warn)').choices(serverLogLevels))
}

/** `serve`'s flags, as commander infers them from the declarations. */
type ServeFlags = OptsOf<ReturnType<typeof declareServe>>
