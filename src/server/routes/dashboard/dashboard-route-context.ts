/**
 * @module server/routes/dashboard: what the dashboard routes share: the env and policy registries, the
 * web files read once at start-up from a fixed list (Chart.js from this package's `node_modules`, no
 * CDN), the security headers they are served with, and the public access they declare.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, extname, join } from 'node:path'
import { z } from 'zod'
import type { EnvRegistry } from '../../../core/registry/env-registry.js'
import type { PolicyRegistry } from '../../../core/registry/policy-registry.js'
import { HttpError } from '../../http/http-errors.js'

export interface StaticFile {
  body: Buffer
  type: string
}

export interface DashboardRouteContext {
  registry: EnvRegistry
  policies: PolicyRegistry
  /** Name (relative to `web/`) → file; nothing is looked up on disk by a request path. */
  files: ReadonlyMap<string, StaticFile>
}

/** The dashboard and what its pages read are public (decision 0047). */
export const dashboardAccess = { access: 'public' as const }
export const dashboardTags = ['dashboard']
export const envIdParams = z.object({ id: z.string().max(100) })

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
}

export const securityHeaders = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
}

/** The folder's files of a known type (not its subfolders), and Chart.js as `vendor/chart.umd.min.js`. */
export function loadWebFiles(folder: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>()
  if (!existsSync(folder)) return files
  for (const name of readdirSync(folder)) {
    const type = contentTypes[extname(name)]
    const path = join(folder, name)
    if (type && statSync(path).isFile()) files.set(name, { body: readFileSync(path), type })
  }
  const chartJs = join(dirname(createRequire(import.meta.url).resolve('chart.js')), 'chart.umd.min.js')
  files.set('vendor/chart.umd.min.js', { body: readFileSync(chartJs), type: contentTypes['.js'] as string })
  return files
}

/** A loaded file by name, or a 404 `not_found`. */
export function dashboardFile(files: ReadonlyMap<string, StaticFile>, name: string): StaticFile {
  const file = files.get(name)
  if (!file) throw new HttpError({ status: 404, code: 'not_found', message: `No dashboard file ${name}.` })
  return file
}
