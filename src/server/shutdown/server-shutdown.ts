/**
 * @module server/shutdown: how a server process stops (SIGTERM, SIGINT, `app.close()`), in a bounded time
 * (decision 0067). Fastify first answers new requests 503; then, in this order:
 * 1. **drain**: every WebSocket session finishes the messages it is answering (a JSON-RPC batch runs to
 *    its end) and is closed with `1001 server_shutdown`; meanwhile HTTP requests whose
 *    reply has not started are waited for. Both within the grace (`--shutdown-grace`, 10 s); what is
 *    still open then is closed anyway.
 * 2. **job hooks**: the named hooks of long-running jobs (eval jobs, the trainer) run, each given the
 *    same deadline; one that throws is logged and the others still run.
 * 3. Fastify closes the listener and what connections remain; the process exits.
 * WebSocket close frames come from here, never from the WebSocket plugin's own hook (which closes with
 * no status, 1005).
 */
import type { FastifyBaseLogger } from 'fastify'
import type { WebSocket } from 'ws'

/** A hook of a long-running job, run once at shutdown with the shutdown's deadline (a `Date.now()` value). */
export type JobShutdownHook = (deadline: number) => Promise<void> | void

/** What the shutdown needs of a WebSocket session's owner. */
export interface DrainableSocket {
  socket: WebSocket
  /** Resolves once the message being answered (if any) is answered. */
  idle: () => Promise<void>
  /** Ends the session and closes the socket with 1001 `server_shutdown`. */
  close: () => void
}

/** The close code and reason every WebSocket gets at shutdown. */
export const shutdownClose = { code: 1001, reason: 'server_shutdown' } as const

export interface ServerShutdownOptions {
  graceMs: number
  log: FastifyBaseLogger
  now?: () => number
}

export class ServerShutdown {
  private readonly sockets = new Set<DrainableSocket>()
  private readonly replies = new Set<{ headersSent: boolean }>()
  private readonly jobHooks: { name: string; run: JobShutdownHook }[] = []
  private readonly now: () => number
  /** True once the shutdown has begun: owners stop taking new work. */
  stopping = false

  constructor(private readonly options: ServerShutdownOptions) {
    this.now = options.now ?? Date.now
  }

  /** A WebSocket session to drain and close at shutdown; forgotten when its socket closes. */
  trackSocket(entry: DrainableSocket): void {
    this.sockets.add(entry)
    entry.socket.once('close', () => this.sockets.delete(entry))
  }

  /** An HTTP reply to wait for (until its headers are sent: a started stream is not waited for). */
  trackReply(reply: { headersSent: boolean; once: (event: 'close', listener: () => void) => unknown }): void {
    this.replies.add(reply)
    reply.once('close', () => this.replies.delete(reply))
  }

  /**
   * The place job hooks run: after the connections are drained, before the process exits. A job that
   * must leave a mark when the server stops under it (an eval job `interrupted`) registers here.
   */
  addJobHook(name: string, run: JobShutdownHook): void {
    this.jobHooks.push({ name, run })
  }

  /** Runs the whole sequence once; resolves when it is done or the grace is spent. */
  async run(): Promise<void> {
    if (this.stopping) return
    this.stopping = true
    const deadline = this.now() + this.options.graceMs
    await Promise.all([this.drainSockets(deadline), this.waitForReplies(deadline)])
    await this.runJobHooks(deadline)
  }

  private async drainSockets(deadline: number): Promise<void> {
    const entries = [...this.sockets]
    await Promise.all(
      entries.map(async (entry) => {
        await Promise.race([entry.idle(), this.sleepUntil(deadline)])
        entry.close()
      }),
    )
    // Peers that do not answer the close frame within the grace are cut.
    const open = entries.filter((entry) => entry.socket.readyState !== entry.socket.CLOSED)
    await Promise.race([
      Promise.all(open.map((entry) => new Promise((resolve) => entry.socket.once('close', resolve)))),
      this.sleepUntil(deadline),
    ])
    for (const entry of open) if (entry.socket.readyState !== entry.socket.CLOSED) entry.socket.terminate()
  }

  private async waitForReplies(deadline: number): Promise<void> {
    while ([...this.replies].some((reply) => !reply.headersSent) && this.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }

  private async runJobHooks(deadline: number): Promise<void> {
    await Promise.all(
      this.jobHooks.map(async (hook) => {
        try {
          await hook.run(deadline)
        } catch (error) {
          this.options.log.error({ err: error }, `shutdown hook ${hook.name} failed`)
        }
      }),
    )
  }

  private sleepUntil(deadline: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - this.now())).unref())
  }
}
