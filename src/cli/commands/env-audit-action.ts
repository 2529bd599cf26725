/** @module cli: `releaseops env audit`, the env's exploit audit over a dataset split, printed beside its baseline ladder. */
import { writeFile } from 'node:fs/promises'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import type { LadderEntry } from '../../core/testing/exploit-audit.js'
import { formatExploitAudit, runExploitAudit } from '../../core/testing/exploit-audit.js'
import { envRegistry, makeEnv, policyRegistry } from '../../envs/index.js'

export interface EnvAuditOptions {
  env: string
  split?: string
  rows?: number
  screen: number
  finalists: number
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
  const resets = rows.slice(0, options.rows ?? rows.length).map((row) => dataset.toResetParams(row))
  const ladder: LadderEntry[] = audit.ladder.map((name) => ({
    name,
    role: name === audit.evidenceBaseline ? 'evidence_baseline' : name === audit.ceiling ? 'ceiling' : 'baseline',
    policy: () => policyRegistry.create(options.env, name),
  }))
  const report = runExploitAudit({
    envId: options.env,
    createEnv: () => makeEnv(options.env),
    resets,
    ladder,
    exploits: audit.exploits(),
    search: { candidates: audit.searchCandidates(), screenResets: options.screen, finalists: options.finalists },
    maxExploitReward: audit.maxExploitReward,
    margin: audit.margin,
  })
  process.stdout.write(formatExploitAudit(report))
  if (options.out) await writeFile(options.out, `${JSON.stringify(report, null, 2)}\n`)
  if (!report.passed) process.exitCode = 1
}
