/** @module cli: `releaseops env audit`, the env's exploit audit over a dataset split, printed beside its baseline ladder. */
import { writeFile } from 'node:fs/promises'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { envAuditOptions } from '../../core/testing/env-audit-options.js'
import { formatExploitAudit, runExploitAudit } from '../../core/testing/exploit-audit.js'
import { envRegistry, makeEnv, policyRegistry } from '../../envs/index.js'
import { createProgress } from '../progress.js'

export interface EnvAuditOptions {
  env: string
  split?: string
  rows?: number
  screen: number
  finalists: number
  fitRows?: number
  out?: string
}

export async function runEnvAudit(options: EnvAuditOptions): Promise<void> {
  const registration = envRegistry.get(options.env)
  const audit = registration.audit
  const dataset = registration.dataset
  if (!audit || !dataset) {
    throw new InvalidInputError({
      code: 'no_env_audit',
      message: `Env ${options.env} ships no exploit audit (or no dataset to play it on).`,
      issues: [],
    })
  }
  const rows = dataset.rows(options.split ?? audit.split)
  const progress = createProgress(`env audit ${options.env} strategies`)
  const report = runExploitAudit({
    ...envAuditOptions({
      envId: options.env,
      registration,
      createEnv: () => makeEnv(options.env),
      policy: (name) => policyRegistry.create(options.env, name),
      rows: rows.slice(0, options.rows ?? rows.length),
      screen: options.screen,
      finalists: options.finalists,
      ...(options.fitRows === undefined ? {} : { fitRows: options.fitRows }),
    }),
    onProgress: (done, total) => progress.update(done, total),
  })
  progress.stop()
  process.stdout.write(formatExploitAudit(report))
  if (options.out) await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`)
  if (!report.passed) process.exitCode = 1
}
