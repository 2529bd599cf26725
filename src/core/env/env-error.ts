/**
 * @module core/env: what a bad call turns into inside an observation (its own file: tool definitions
 * and the env contract both use it, and neither imports the other for it).
 */

export interface EnvErrorIssue {
  code: string
  path: string
  message: string
}

/** What a bad call turns into inside the observation. */
export interface EnvError {
  code: string
  message: string
  issues?: EnvErrorIssue[]
}
