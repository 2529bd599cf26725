/**
 * @module server: the server's options, one zod schema (CLI flags and environment variables are parsed
 * into it). Defaults are safe: loopback only, a session limit, the idle reaper on, size limits.
 */
import { z } from 'zod'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { parseAllowEntry } from '../io/outbound/outbound-policy.js'
import { describeIssues, issuesFromZod } from './wire/validation-issues.js'

/** The server log's levels (pino's), the values `--log-level` takes. */
export const serverLogLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'silent'] as const

export const serverOptionsSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.int().min(0).max(65_535).default(8000),
  /** Served at the root as well as under `/envs/{id}`; the registry's default when absent. */
  defaultEnvId: z.string().optional(),
  /**
   * Per process (as OpenEnv's MAX_CONCURRENT_ENVS is per worker). The default holds one VeRL step of
   * 256 prompts × n=8 rollouts (2,048 sessions) twice over; memory stays bounded by it (bench/arena-load).
   */
  maxSessions: z.int().min(1).default(4096),
  /**
   * Most sessions one client (an address; an IPv6 /64) may hold: one VeRL step of 2,048 rollouts with a
   * quarter to spare, which leaves 1,536 of the default 4,096 to everyone else. Raise it with
   * `maxSessions` for a bigger step. Capacity is checked first, so below it this share changes nothing.
   */
  maxSessionsPerClient: z.int().min(1).default(2560),
  /** Idle sessions are closed after this many seconds; 0 turns the reaper off. */
  sessionTimeoutS: z.number().min(0).default(900),
  /** HTTP connections one client may hold open (WebSockets count as sessions instead); over it: 429. */
  maxConnectionsPerClient: z.int().min(1).default(256),
  /** The request line and headers must arrive within this (408 `header_timeout`). */
  headerTimeoutS: z.number().positive().default(10),
  /** The whole request body must arrive within this after the headers, however it trickles (408 `body_timeout`). */
  bodyTimeoutS: z.number().positive().default(30),
  /** A kept-alive connection with no request for this long is closed. */
  idleTimeoutS: z.number().positive().default(72),
  /** On SIGTERM: how long in-flight messages and requests are waited for before everything is closed. */
  shutdownGraceS: z.number().min(0).default(10),
  /**
   * Outbound endpoints allowed besides public addresses (`host[:port]`): eval jobs' model endpoints, the
   * trainer's vLLM server, the Hub. Private, link-local and metadata addresses are refused unless listed.
   */
  allowEndpoints: z.array(z.string().min(1)).default([]),
  /** Loopback endpoints (a local vLLM) are allowed unless this is false. */
  loopbackEndpoints: z.boolean().default(true),
  workers: z.int().min(1).max(64).default(1),
  /** Env play's bearer token; when set, every session route needs it (stock OpenEnv clients send none). */
  token: z.string().min(16, 'A token needs at least 16 characters.').optional(),
  /** Operator routes' token (`/outputs`, `/train`, `/counters`, `/api/eval`, `/hub`); `token` when absent. */
  operatorToken: z.string().min(16, 'A token needs at least 16 characters.').optional(),
  /** Host names served besides loopback names and IP literals (DNS-rebinding defence); `*` = any. */
  allowedHosts: z.array(z.string().min(1)).default([]),
  /** Browser origins allowed on WebSocket upgrades and `/mcp` besides same-origin ones; `*` = any. */
  allowedOrigins: z.array(z.string().min(1)).default([]),
  bodyLimitBytes: z
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Largest WebSocket frame accepted; a bigger one closes the connection with 1009. */
  maxFrameBytes: z
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Replies a slow reader may leave unread before its connection is dropped. */
  maxBufferedBytes: z
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  /** Most requests in one JSON-RPC batch (HTTP and WebSocket); a bigger batch is refused whole. */
  maxBatchSize: z.int().min(1).max(10_000).default(100),
  /** A batch's reply stops growing here: the remaining requests are answered "not run". */
  maxBatchReplyBytes: z
    .int()
    .min(1024)
    .default(4 * 1024 * 1024),
  /** Largest reply an eval job reads from a model endpoint; a bigger one fails the job (`endpoint_reply_too_large`). */
  maxModelReplyBytes: z
    .int()
    .min(1024)
    .default(16 * 1024 * 1024),
  pingIntervalS: z.number().min(0).default(20),
  /** No pong or message for this long: the connection is half-open and is terminated. */
  pingTimeoutS: z.number().positive().default(120),
  logLevel: z.enum(serverLogLevels).default('warn'),
})

export type ServerOptions = z.output<typeof serverOptionsSchema>
export type ServerOptionsInput = z.input<typeof serverOptionsSchema>

export function parseServerOptions(input: ServerOptionsInput): ServerOptions {
  const parsed = serverOptionsSchema.safeParse(input)
  if (parsed.success) {
    refuseBadAllowEntries(parsed.data.allowEndpoints)
    return parsed.data
  }
  const issues = issuesFromZod(parsed.error.issues)
  throw new InvalidInputError({ code: 'invalid_server_options', message: describeIssues(issues), issues })
}

/** Each `--allow-endpoint` entry is a well-formed HOST[:PORT], or the options are refused (nothing starts). */
function refuseBadAllowEntries(entries: readonly string[]): void {
  entries.forEach((entry, index) => {
    try {
      parseAllowEntry(entry)
    } catch (error) {
      const message = (error as Error).message
      const issue = { code: 'invalid_allow_endpoint', path: `allowEndpoints.${index}`, message }
      throw new InvalidInputError({ code: 'invalid_server_options', message, issues: [issue] })
    }
  })
}

/** True for 127.0.0.0/8, ::1 and localhost. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127(?:\.\d{1,3}){3}$/.test(host)
}
