/**
 * @module train/verl: `releaseops verl preflight`, run on the machine that will train. Checks the run
 * directory (every file as `verl config` wrote it), the release (hashes, run kind, format id, thinking
 * flag), the tool set and parser, the installed VeRL (version file, declared patches by hash), the host
 * (GPUs, driver, torch/CUDA, VeRL, vLLM), the token budget, and the reference checkpoint; writes all of it
 * to `launch_manifest.json`, and yields a launch command only when every check passed.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { sha256Hex } from '../../io/sha256.js'
import { checkGateReport } from './gate-evidence.js'
import { checkHost, type HostFacts, type HostRequirements, probeHost } from './host-probe.js'
import { gateScript, gateScriptName, type LaunchStep, sftLaunchPlan } from './launch-plan.js'
import { locateRun } from './locate-run.js'
import { releaseCheck, runDirectoryCheck, toolsCheck } from './preflight-run-checks.js'
import { checkReferenceCheckpoint } from './reference-provenance.js'
import { runArenaPreflight } from './run-arena-preflight.js'
import { gradingToolSchemas, readTaskBundle } from './task-bundle.js'
import { checkTokenBudget } from './token-budget.js'
import { shellWord, verlEntryImports, verlRunFiles } from './verl-overrides.js'
import {
  type CheckResult,
  checkVerlPatches,
  checkVerlVersion,
  loadVerlPatchList,
  noPatches,
  type VerlPatchList,
} from './verl-patches.js'
import { type ArenaVerlConfig, arenaConfigFormat } from './write-arena-config.js'
import { type VerlConfig, verlConfigFormat } from './write-verl-config.js'

export const launchManifestFormat = 'releaseops-verl-launch-v1'

export interface VerlPreflightOptions {
  runDirectory: string
  /** The declared VeRL patches; none declared when absent (no run kind needs one on VeRL 0.9). */
  patchList?: string | undefined
  /** The installed `verl` package directory; default: where the training interpreter imports it from. */
  verlRoot?: string
  nvidiaSmi?: string
  /** Overrides the config's interpreter (the one that will train). */
  python?: string
  host: Omit<HostRequirements, 'gpus' | 'needVllm'>
  /** RLOO: the trajectory release the reference was fine-tuned on, whose thinking flag must match. */
  sftRelease?: string
  /** RLOO: the passed `gate rollout` report of the reference on this release (no gate, no RLOO: docs/release-runbook.md §6). */
  gateReport?: string | undefined
  /** The split the gate must cover (default val) and the fewest episodes it may decide on. */
  gateSplit?: string
  gateMinDenominator?: number
  now?: () => Date
}

export interface LaunchManifest {
  format: typeof launchManifestFormat
  status: 'passed' | 'failed'
  kind: VerlConfig['kind']
  run_directory: string
  config_sha256: string
  checked_at: string
  checks: CheckResult[]
  failed: string[]
  command: string | null
  /** SFT: the steps after this one (merge, gate, RLOO), their commands written out. */
  plan?: LaunchStep[]
}

function readConfig(runDirectory: string): { config: VerlConfig; sha256: string } | { arena: ArenaVerlConfig; bytes: Buffer } {
  const path = join(runDirectory, verlRunFiles.config)
  if (!existsSync(path))
    throw new InvalidInputError({
      code: 'not_a_verl_run',
      path,
      message: `${runDirectory} has no ${verlRunFiles.config}; write one with \`releaseops verl config\`.`,
      issues: [],
    })
  const bytes = readFileSync(path)
  const config = JSON.parse(bytes.toString('utf8')) as VerlConfig
  if ((config.format as string) === arenaConfigFormat) return { arena: config as unknown as ArenaVerlConfig, bytes }
  if (config.format !== verlConfigFormat)
    throw new InvalidInputError({
      code: 'not_a_verl_run',
      path,
      message: `${path} is not a ${verlConfigFormat} file.`,
      issues: [],
    })
  return { config, sha256: sha256Hex(bytes) }
}

/** The launch command; `python` is the probed interpreter's own path, which replaces the config's name for it. */
export function launchCommand(
  runDirectory: string,
  config: Pick<VerlConfig, 'entry_point' | 'overrides' | 'environment'>,
  python?: string,
): string {
  const [configured, ...rest] = config.entry_point
  return [
    `cd ${shellWord(runDirectory)} &&`,
    'env',
    ...Object.entries(config.environment).map(([name, value]) => shellWord(`${name}=${value}`)),
    ...[python ?? (configured as string), ...rest].map(shellWord),
    ...config.overrides.map(shellWord),
  ].join(' ')
}

/** The installed VeRL: its version and the declared patches, or why there is none to check. */
function verlInstallChecks(options: {
  verlRoot: string | null
  python: string
  list: VerlPatchList | null
  facts: HostFacts
  kind: VerlConfig['kind']
}): CheckResult[] {
  const { verlRoot, list } = options
  if (verlRoot === null)
    return [{ name: 'verl_version', passed: false, detail: `${options.python} imports no VeRL and no --verl-root was given` }]
  return [
    checkVerlVersion({ verlRoot, list, metadataVersion: options.facts.python?.verl ?? null }),
    checkVerlPatches({ verlRoot, list: list ?? noPatches(), kind: options.kind }),
  ]
}

/** The release's rows against the token budget; a bundle or release that cannot be read fails the check. */
async function tokenBudgetCheck(runDirectory: string, config: VerlConfig): Promise<CheckResult> {
  try {
    const { bundle, tasks } = readTaskBundle(runDirectory)
    return await checkTokenBudget({
      release: config.release.directory,
      mixture: config.release.kind === 'trajectory-mixture',
      settings: config.settings,
      tools: gradingToolSchemas(),
      metadataFields: bundle.metadata_fields,
      ...(config.kind === 'rloo' ? { tasks } : {}),
    })
  } catch (error) {
    return { name: 'token_budget', passed: false, detail: (error as Error).message }
  }
}

/** The gate report's check: always for RLOO, for SFT only when a report was given. */
function gateChecks(options: VerlPreflightOptions, config: VerlConfig): CheckResult[] {
  if (config.kind !== 'rloo' && options.gateReport === undefined) return []
  return [
    checkGateReport(options.gateReport, config, {
      ...(options.gateSplit ? { split: options.gateSplit } : {}),
      ...(options.gateMinDenominator !== undefined ? { minDenominator: options.gateMinDenominator } : {}),
    }),
  ]
}

/** `launch.sh`: the launch command, then the plan's later steps as comments. */
export function launchScript(manifest: Pick<LaunchManifest, 'checked_at' | 'command' | 'plan'>): string {
  const later = (manifest.plan ?? [])
    .slice(1)
    .map((step) => `# then ${step.name}: ${step.command}\n`)
    .join('')
  return `#!/bin/sh\n# Written by releaseops verl preflight (${manifest.checked_at}); see launch_manifest.json.\nset -e\n${manifest.command}\n${later}`
}

/** The manifest, and the launch script when there is a command (a stale one removed when there is none). */
function writeLaunchFiles(runDirectory: string, manifest: LaunchManifest): void {
  writeFileSync(join(runDirectory, verlRunFiles.launchManifest), `${JSON.stringify(manifest, null, 2)}\n`)
  const script = join(runDirectory, verlRunFiles.launchScript)
  if (manifest.command) writeFileSync(script, launchScript(manifest), { mode: 0o755 })
  else rmSync(script, { force: true })
}

export async function runVerlPreflight(options: VerlPreflightOptions): Promise<LaunchManifest> {
  const runDirectory = resolve(options.runDirectory)
  const read = readConfig(runDirectory)
  if ('arena' in read) return runArenaPreflight(options, read.arena, read.bytes)
  const { sha256 } = read
  // Checked as written; everything after runs with the paths of where the run directory is now.
  const config = locateRun(runDirectory, read.config)
  const list = options.patchList === undefined ? null : loadVerlPatchList(options.patchList)
  const checks: CheckResult[] = [
    runDirectoryCheck(runDirectory, read.config),
    releaseCheck(config, options.sftRelease),
    toolsCheck(runDirectory, config),
  ]
  const python = options.python ?? config.settings.python
  const facts = probeHost({
    python,
    nvidiaSmi: options.nvidiaSmi ?? 'nvidia-smi',
    imports: verlEntryImports(config.settings),
    env: config.environment,
  })
  const verlRoot = options.verlRoot ? resolve(options.verlRoot) : (facts.python?.verl_root ?? null)
  checks.push(...verlInstallChecks({ verlRoot, python, list, facts, kind: config.kind }))
  checks.push(checkHost(facts, { ...options.host, gpus: config.settings.gpus_per_node, needVllm: config.kind === 'rloo' }))
  checks.push(await tokenBudgetCheck(runDirectory, config))
  checks.push(checkReferenceCheckpoint(config.settings.model_path))
  checks.push(...gateChecks(options, config))
  const failed = checks.filter((check) => !check.passed).map((check) => check.name)
  const manifest: LaunchManifest = {
    format: launchManifestFormat,
    status: failed.length === 0 ? 'passed' : 'failed',
    kind: config.kind,
    run_directory: runDirectory,
    config_sha256: sha256,
    checked_at: (options.now ?? (() => new Date()))().toISOString(),
    checks,
    failed,
    command: failed.length === 0 ? launchCommand(runDirectory, config, facts.python?.executable) : null,
  }
  if (config.kind === 'sft') {
    const interpreter = facts.python?.executable ?? python
    manifest.plan = sftLaunchPlan({
      runDirectory,
      config,
      python: interpreter,
      sftCommand: manifest.command ?? '(preflight failed: no command)',
    })
    writeFileSync(join(runDirectory, gateScriptName), gateScript(runDirectory, config, interpreter), { mode: 0o755 })
  }
  writeLaunchFiles(runDirectory, manifest)
  return manifest
}
