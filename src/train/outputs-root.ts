/**
 * @module train: paths confined to the outputs root. A requested path is relative, has no `..`, no
 * empty or hidden-control segments, and no symbolic link anywhere on the way (checked with `lstat` on
 * every segment, then the real path is checked to lie inside the root's real path). Anything else is a
 * coded error, never a file outside the root.
 */
import { lstat, readdir, realpath, stat } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import type { ErrorCode } from '../core/errors/error-code.js'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'
import { makeOutputsDirectory } from './make-outputs-directory.js'

export class OutputsPathError extends ReleaseOpsError {
  readonly status: number

  constructor(options: { code: ErrorCode; message: string; path: string; status?: number | undefined }) {
    super({ code: options.code, message: options.message, path: options.path })
    this.name = 'OutputsPathError'
    this.status = options.status ?? 400
  }
}

/** The refusal of `requested` (a 400 unless `status` says otherwise). */
function refused(requested: string, code: ErrorCode, message: string, status?: number): OutputsPathError {
  return new OutputsPathError({ code, message, path: requested, status })
}

export interface OutputsEntry {
  /** Relative to the outputs root, `/`-separated. */
  path: string
  type: 'file' | 'directory' | 'symlink'
  size: number
  modified: string
}

export interface ResolvedOutputsPath {
  /** Absolute path inside the root. */
  absolute: string
  /** Relative path, `/`-separated (`''` for the root itself). */
  relative: string
  type: 'file' | 'directory'
  size: number
}

const maxPathLength = 1024

/** Splits and checks a caller's path; throws `OutputsPathError` for anything that could leave the root. */
function outputsPathSegments(requested: string): string[] {
  if (requested.length > maxPathLength) {
    throw refused(requested, 'path_too_long', `Paths have at most ${maxPathLength} characters.`)
  }
  if (requested.includes('\0')) {
    throw refused(requested, 'invalid_path', 'A path cannot contain NUL.')
  }
  if (isAbsolute(requested) || requested.startsWith('/') || requested.startsWith('\\') || /^[A-Za-z]:/.test(requested)) {
    throw refused(requested, 'absolute_path', 'Give a path relative to the outputs root (GET /outputs/ls lists it).')
  }
  const segments = requested.split(/[\\/]+/).filter((segment) => segment !== '' && segment !== '.')
  if (segments.includes('..')) {
    throw refused(requested, 'path_traversal', 'A path cannot contain "..".')
  }
  return segments
}

/** The root's real path (created when missing, so a fresh server can list an empty root). */
async function outputsRootRealPath(root: string): Promise<string> {
  await makeOutputsDirectory(root)
  return realpath(root)
}

/** Resolves a caller's path inside the root: no `..`, no symlink on the way, must exist. */
export async function resolveOutputsPath(root: string, requested: string): Promise<ResolvedOutputsPath> {
  const segments = outputsPathSegments(requested)
  const rootReal = await outputsRootRealPath(root)
  let current = rootReal
  for (const segment of segments) {
    current = join(current, segment)
    const info = await lstat(current).catch(() => undefined)
    if (!info) {
      throw refused(requested, 'not_found', `No such file or folder: ${requested}`, 404)
    }
    if (info.isSymbolicLink()) {
      throw refused(requested, 'symlink_refused', 'Symbolic links are not followed under the outputs root.', 403)
    }
  }
  const real = await realpath(current)
  if (real !== rootReal && !real.startsWith(rootReal + sep)) {
    throw refused(requested, 'path_escape', 'The path leaves the outputs root.', 403)
  }
  const info = await stat(real)
  if (!info.isFile() && !info.isDirectory()) {
    throw refused(requested, 'not_regular', 'Only files and folders are served.', 403)
  }
  return {
    absolute: real,
    relative: segments.join('/'),
    type: info.isDirectory() ? 'directory' : 'file',
    size: info.size,
  }
}

/** Entries under a folder of the root, depth-first, at most `limit`; symlinks are listed, never followed. */
export async function listOutputs(options: {
  root: string
  path?: string
  maxDepth?: number
  limit?: number
}): Promise<{ path: string; entries: OutputsEntry[]; truncated: boolean }> {
  const start = await resolveOutputsPath(options.root, options.path ?? '')
  if (start.type !== 'directory') {
    throw new OutputsPathError({ code: 'not_a_directory', message: 'List a folder, not a file.', path: options.path ?? '' })
  }
  const rootReal = await outputsRootRealPath(options.root)
  const limit = options.limit ?? 2000
  const maxDepth = options.maxDepth ?? 6
  const entries: OutputsEntry[] = []
  let truncated = false
  const walk = async (folder: string, depth: number): Promise<void> => {
    const names = (await readdir(folder)).sort()
    for (const name of names) {
      if (entries.length >= limit) {
        truncated = true
        return
      }
      const absolute = join(folder, name)
      const info = await lstat(absolute).catch(() => undefined)
      if (!info) continue
      const type = info.isSymbolicLink() ? 'symlink' : info.isDirectory() ? 'directory' : info.isFile() ? 'file' : undefined
      if (!type) continue
      entries.push({
        path: relative(rootReal, absolute).split(sep).join('/'),
        type,
        size: type === 'file' ? info.size : 0,
        modified: info.mtime.toISOString(),
      })
      if (type === 'directory' && depth < maxDepth) await walk(absolute, depth + 1)
    }
  }
  await walk(start.absolute, 1)
  return { path: start.relative, entries, truncated }
}
