/**
 * @module server/wire: validation failures as `{code, path, message}` issues (our errors) and as
 * FastAPI-style `detail` entries (`{type, loc, msg}`), which OpenEnv clients already know how to print.
 */
import type { z } from 'zod'
import type { InputIssue } from '../../core/errors/invalid-input-error.js'

/** Zod issues with dotted paths under `prefix`; an unknown-keys issue becomes one issue per key. */
export function issuesFromZod(issues: readonly z.core.$ZodIssue[], prefix: readonly PropertyKey[] = []): InputIssue[] {
  const result: InputIssue[] = []
  for (const issue of issues) {
    const path = [...prefix, ...issue.path]
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        result.push({ code: 'unrecognized_key', path: joinPath([...path, key]), message: 'Extra inputs are not permitted.' })
      }
    } else {
      result.push({ code: issue.code, path: joinPath(path), message: issue.message })
    }
  }
  return result
}

function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}

/** FastAPI's 422 `detail` list; `loc` starts with where the value came from (`body`, `query`). */
export function fastApiDetail(issues: readonly InputIssue[], location = 'body'): { type: string; loc: string[]; msg: string }[] {
  return issues.map((issue) => ({
    type: issue.code === 'unrecognized_key' ? 'extra_forbidden' : issue.code,
    loc: [location, ...(issue.path === '' ? [] : issue.path.split('.'))],
    msg: issue.message,
  }))
}

/** One line naming every issue, for `message` fields. */
export function describeIssues(issues: readonly InputIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join('; ')
}
