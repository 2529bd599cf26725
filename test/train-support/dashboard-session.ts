/**
 * The lifecycle every dashboard test shares: before all, an operations server (`prepare` may write files
 * under its outputs root first), headless Chromium and one page opened with the operator token (ready on
 * `ready`, the errors logged before then forgotten); after all, both closed.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import { launchBrowser, openPage, openReadyPage } from './browser.js'
import { type OperationsServer, startOperationsServer, token } from './operations-server.js'

export interface DashboardSession {
  server: OperationsServer
  browser: Browser
  page: Page
}

export function useDashboardSession(options: {
  /** The page under the server, e.g. `/ui/eval.html`. */
  path: string
  ready?: string
  state?: 'attached' | 'visible'
  prepare?: (server: OperationsServer) => Promise<void>
  /** Receives the session once it is open (the test file keeps its parts). */
  opened: (session: DashboardSession) => void
  /** How long opening (with `prepare`) may take; a busy machine needs more for a big `prepare`. */
  openTimeoutMs?: number
}): void {
  let server: OperationsServer | undefined
  let browser: Browser | undefined
  beforeAll(async () => {
    server = await startOperationsServer()
    await options.prepare?.(server)
    browser = await launchBrowser()
    const url = `${server.url}${options.path}`
    const page =
      options.ready === undefined
        ? await openPage(browser, url, token)
        : await openReadyPage({ browser, url, token, ready: options.ready, ...(options.state ? { state: options.state } : {}) })
    options.opened({ server, browser, page })
  }, options.openTimeoutMs ?? 60_000)
  afterAll(async () => {
    await browser?.close()
    await server?.dispose()
  })
}
