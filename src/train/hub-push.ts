/**
 * @module train: pushes a folder (or file) of the outputs root to a Hub model repo with
 * `@huggingface/hub`. The token is the server's own (`HF_TOKEN`), never taken from a request; the repo
 * id is validated and the path confined to the outputs root, so a caller cannot make the server upload
 * something else or somewhere else with its credentials. Symbolic links are never followed.
 */
import { lstat, readdir } from 'node:fs/promises'
import { join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { createRepo, uploadFiles } from '@huggingface/hub'
import { OutboundRefusedError } from '../io/outbound/outbound-refused-error.js'
import { resolveOutputsPath } from './outputs-root.js'
import { TrainingUnavailableError } from './training-errors.js'

export interface HubPushOptions {
  outputsRoot: string
  /** Relative to the outputs root. */
  path: string
  repo: string
  token: string | undefined
  /** Hub endpoint (default https://huggingface.co; `HF_ENDPOINT` in the server's environment). */
  hubUrl?: string
  commitTitle?: string
  /** Create the repo (private) when it does not exist yet. */
  createIfMissing?: boolean
  /** Largest total upload (default 20 GiB). */
  maxBytes?: number
  fetch?: typeof fetch
}

export interface HubPushResult {
  repo: string
  path: string
  files: number
  bytes: number
  commit: string | null
  url: string | null
}

async function collectFiles(
  folder: string,
  root: string,
  files: { absolute: string; path: string; size: number }[],
): Promise<void> {
  for (const name of (await readdir(folder)).sort()) {
    const absolute = join(folder, name)
    const info = await lstat(absolute)
    if (info.isSymbolicLink()) continue
    if (info.isDirectory()) await collectFiles(absolute, root, files)
    else if (info.isFile()) files.push({ absolute, path: relative(root, absolute).split(sep).join('/'), size: info.size })
  }
}

export async function pushToHub(options: HubPushOptions): Promise<HubPushResult> {
  if (!options.token) {
    throw new TrainingUnavailableError({
      code: 'hub_token_missing',
      message: 'The server has no Hub token: set HF_TOKEN in its environment (it is never taken from a request).',
      status: 503,
    })
  }
  const target = await resolveOutputsPath(options.outputsRoot, options.path)
  const files: { absolute: string; path: string; size: number }[] = []
  if (target.type === 'directory') await collectFiles(target.absolute, target.absolute, files)
  else files.push({ absolute: target.absolute, path: target.relative.split('/').at(-1) as string, size: target.size })
  if (files.length === 0) {
    throw new TrainingUnavailableError({ code: 'nothing_to_push', message: `${options.path} holds no files.`, status: 422 })
  }
  const bytes = files.reduce((total, file) => total + file.size, 0)
  const maxBytes = options.maxBytes ?? 20 * 1024 ** 3
  if (bytes > maxBytes) {
    throw new TrainingUnavailableError({
      code: 'push_too_large',
      message: `${options.path} holds ${bytes} bytes, more than the ${maxBytes}-byte limit.`,
      status: 413,
    })
  }
  const common = {
    credentials: { accessToken: options.token },
    ...(options.hubUrl ? { hubUrl: options.hubUrl } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  }
  const repo = { type: 'model' as const, name: options.repo }
  const output = await asHubError(options, async () => {
    if (options.createIfMissing) {
      await createRepo({ ...common, repo, visibility: 'private' }).catch((error: { statusCode?: number }) => {
        if (error.statusCode !== 409) throw error // 409: it exists already
      })
    }
    return uploadFiles({
      ...common,
      repo,
      commitTitle: options.commitTitle ?? `releaseops: upload ${options.path}`,
      // file: URLs are read lazily, so a multi-gigabyte checkpoint is streamed, not loaded.
      files: files.map((file) => ({ path: file.path, content: pathToFileURL(file.absolute) })),
    })
  })
  return {
    repo: options.repo,
    path: target.relative,
    files: files.length,
    bytes,
    commit: output?.commit.oid ?? null,
    url: output?.commit.url ?? null,
  }
}

/**
 * Failures of the Hub itself are the upstream's, not ours: a Hub that cannot be reached is a 503
 * `hub_unreachable`, one that answers with an error status a 502 `hub_error` (its status and message
 * kept), so a caller can tell "retry later" from a bug of this server (500).
 */
async function asHubError<T>(options: HubPushOptions, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (error) {
    const hub = options.hubUrl ?? 'https://huggingface.co'
    const statusCode = (error as { statusCode?: unknown }).statusCode
    if (OutboundRefusedError.isInstance(error)) {
      throw new TrainingUnavailableError({
        code: 'hub_endpoint_refused',
        message: `The push of ${options.path} to ${options.repo} was stopped by the server's outbound policy: ${error.message}`,
        status: 502,
      })
    }
    if (typeof statusCode === 'number') {
      throw new TrainingUnavailableError({
        code: 'hub_error',
        message: `The Hub (${hub}) refused the push of ${options.path} to ${options.repo}: HTTP ${statusCode} ${(error as Error).message}`,
        status: 502,
        details: { hub_status: statusCode },
      })
    }
    if (error instanceof TypeError || (error as { code?: unknown }).code !== undefined) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause
      throw new TrainingUnavailableError({
        code: 'hub_unreachable',
        message: `The Hub (${hub}) cannot be reached: ${cause?.code ?? cause?.message ?? (error as Error).message}. Retry when it is back.`,
        status: 503,
      })
    }
    throw error
  }
}
