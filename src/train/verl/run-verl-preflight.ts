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
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { sha256Hex } from '../../release/io/sha256.js'
import { checkGateReport } from './gate-evidence.js'
import { checkHost, type HostRequirements, probeHost } from './host-probe.js'
import { type LaunchStep, sftLaunchPlan } from './launch-plan.js'
import { detectModelFamily, modelFamilyFacts } from './model-family.js'
import { checkReferenceCheckpoint } from './reference-provenance.js'
import { gradingToolSchemas, readTaskBundle } from './task-bundle.js'
import { checkTokenBudget } from './token-budget.js'
import { rlooOverrides, sftOverrides, shellWord, verlEntryPoint, verlRunFiles } from './verl-overrides.js'
import { type CheckResult, checkVerlPatches, checkVerlVersion, loadVerlPatchList } from './verl-patches.js'
import { readVerlRelease } from './verl-release.js'
import { verlRunSettingsSchema } from './verl-run-settings.js'
import { hashRunFiles, releaseFitProblems, type VerlConfig, verlConfigFormat } from './write-verl-config.js'

export const launchManifestFormat = 'releaseops-verl-launch-v1'

export interface VerlPreflightOptions {
  runDirectory: string
  patchList: string
  /** The installed `verl` package directory; default: where the training interpreter imports it from. */
  verlRoot?: string
  nvidiaSmi?: string
  /** Overrides the config's interpreter (the one that will train). */
  python?: string
  host: Omit<HostRequirements, 'gpus' | 'needVllm'>
  /** RLOO: the trajectory release the reference was fine-tuned on, whose thinking flag must match. */
  sftRelease?: string
  /** RLOO: the passed `gate rollout` report of the reference on this release (runbook §6: no gate, no RLOO). */
  gateReport?: string
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

function readConfig(runDirectory: string): { config: VerlConfig; sha256: string } {
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
  if (config.format !== verlConfigFormat)
    throw new InvalidInputError({
      code: 'not_a_verl_run',
      path,
      message: `${path} is not a ${verlConfigFormat} file.`,
      issues: [],
    })
  return { config, sha256: sha256Hex(bytes) }
}

/** The launch settings `verl config` derives from the settings, re-derived: a hand edit shows as a difference. */
function configDrift(runDirectory: string, config: VerlConfig): string[] {
  const parsed = verlRunSettingsSchema.safeParse(config.settings)
  if (!parsed.success) return ['settings no longer pass validation']
  const paths = { run: runDirectory, release: config.release.directory }
  const expected = {
    overrides:
      parsed.data.kind === 'sft' ? sftOverrides(parsed.data, paths) : rlooOverrides(parsed.data, paths, config.tool_parser),
    entry_point: verlEntryPoint(parsed.data),
    environment: { PYTHONPATH: runDirectory, RELEASEOPS_VERL_TASK: join(runDirectory, verlRunFiles.task) },
  }
  return (Object.keys(expected) as (keyof typeof expected)[])
    .filter((key) => JSON.stringify(expected[key]) !== JSON.stringify(config[key]))
    .map((key) => `verl_config.json ${key} differ from what its settings give`)
}

function runDirectoryCheck(runDirectory: string, config: VerlConfig): CheckResult {
  const now = hashRunFiles(runDirectory)
  const changed = [...new Set([...Object.keys(now), ...Object.keys(config.files)])]
    .filter((file) => now[file] !== config.files[file])
    .sort()
  const problems = [
    ...(changed.length > 0 ? [`changed since \`verl config\`: ${changed.slice(0, 10).join(', ')}`] : []),
    ...configDrift(runDirectory, config),
  ]
  return {
    name: 'run_directory',
    passed: problems.length === 0,
    detail: problems.length === 0 ? `${Object.keys(now).length} files as written` : problems.join('; '),
    facts: { files: Object.keys(now).length },
  }
}

function releaseCheck(config: VerlConfig, sftRelease: string | undefined): CheckResult {
  const problems: string[] = []
  const facts: Record<string, unknown> = {}
  try {
    const release = readVerlRelease(config.release.directory)
    Object.assign(facts, {
      directory: release.directory,
      kind: release.kind,
      datasets: release.datasets,
      export_report_sha256: release.export_report_sha256,
      artifacts_sha256: release.artifacts_sha256,
    })
    if (
      release.export_report_sha256 !== config.release.export_report_sha256 ||
      JSON.stringify(release.artifacts_sha256) !== JSON.stringify(config.release.artifacts_sha256)
    )
      problems.push('the release changed since `verl config`')
    problems.push(...releaseFitProblems(release, config.settings).map((problem) => problem.message))
  } catch (error) {
    problems.push((error as Error).message)
  }
  if (sftRelease !== undefined) {
    try {
      const sft = readVerlRelease(sftRelease)
      facts.sft_release = {
        directory: sft.directory,
        enable_thinking: sft.enable_thinking,
        export_report_sha256: sft.export_report_sha256,
      }
      if (sft.enable_thinking !== null && sft.enable_thinking !== config.settings.enable_thinking)
        problems.push(
          `the reference was fine-tuned with enable_thinking=${sft.enable_thinking}, the RL config says ${config.settings.enable_thinking}`,
        )
    } catch (error) {
      problems.push(`--sft-release: ${(error as Error).message}`)
    }
  }
  facts.enable_thinking = config.settings.enable_thinking
  return {
    name: 'release',
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `${config.release.kind} release verified; enable_thinking=${config.settings.enable_thinking}`
        : problems.join('; '),
    facts,
  }
}

function toolsCheck(runDirectory: string, config: VerlConfig): CheckResult {
  const problems: string[] = []
  const expected = gradingToolSchemas()
  const names = expected.map((tool) => tool.function.name)
  try {
    const written = JSON.parse(readFileSync(join(runDirectory, verlRunFiles.toolSchemas), 'utf8'))
    if (JSON.stringify(written) !== JSON.stringify(expected))
      problems.push(`${verlRunFiles.toolSchemas} differs from the grading env's tools`)
    const task = JSON.parse(readFileSync(join(runDirectory, verlRunFiles.task), 'utf8')) as {
      trajectory_format?: string
      tools?: string[]
      enable_thinking?: boolean
    }
    if (task.trajectory_format !== nativeToolTrajectoryFormat)
      problems.push(`task.json's format is ${String(task.trajectory_format)}, not ${nativeToolTrajectoryFormat}`)
    if (JSON.stringify(task.tools) !== JSON.stringify(names))
      problems.push(`task.json names tools ${JSON.stringify(task.tools)}, the env ${JSON.stringify(names)}`)
    if (task.enable_thinking !== config.settings.enable_thinking)
      problems.push(
        `task.json has enable_thinking=${String(task.enable_thinking)}, the config ${config.settings.enable_thinking}`,
      )
  } catch (error) {
    problems.push((error as Error).message)
  }
  if (JSON.stringify(config.tools) !== JSON.stringify(names))
    problems.push(`the config names tools ${JSON.stringify(config.tools)}`)
  if (config.trajectory_format !== nativeToolTrajectoryFormat) problems.push(`the config's format is ${config.trajectory_format}`)
  const family = modelFamilyFacts[config.model_family]
  const parser = family?.tool_parser
  if (family === undefined) problems.push(`the config's model family ${String(config.model_family)} is not one we know`)
  else if (config.tool_parser !== parser)
    problems.push(
      `the rollout parser is ${config.tool_parser}, but ${config.model_family} writes ${family.call_syntax} calls (${parser})`,
    )
  const formatOverride = config.overrides.find((entry) => entry.startsWith('actor_rollout_ref.rollout.multi_turn.format='))
  if (formatOverride !== undefined && formatOverride.split('=')[1] !== parser)
    problems.push(`the agent loop's format is ${formatOverride.split('=')[1]}, not ${String(parser)}`)
  // The checkpoint on this machine decides: its template must be the family the run was written for.
  const detected = detectModelFamily(config.settings.model_path)
  if (detected !== null && detected !== config.model_family)
    problems.push(`the checkpoint's chat template is ${detected}'s, the run was written for ${config.model_family}`)
  if (detected === null && config.model_family_source === 'template')
    problems.push(`the checkpoint at ${config.settings.model_path} no longer ships the ${config.model_family} template`)
  return {
    name: 'tools_and_format',
    passed: problems.length === 0,
    detail:
      problems.length === 0
        ? `${names.join(', ')}; ${nativeToolTrajectoryFormat}; ${config.model_family} (${config.model_family_source}) → ${String(parser)}`
        : problems.join('; '),
    facts: {
      tools: names,
      trajectory_format: nativeToolTrajectoryFormat,
      model_family: config.model_family,
      model_family_source: config.model_family_source,
      template_family: detected,
      parser: config.tool_parser,
    },
  }
}

export function launchCommand(runDirectory: string, config: VerlConfig): string {
  return [
    `cd ${shellWord(runDirectory)} &&`,
    'env',
    ...Object.entries(config.environment).map(([name, value]) => shellWord(`${name}=${value}`)),
    ...config.entry_point.map(shellWord),
    ...config.overrides.map(shellWord),
  ].join(' ')
}

export async function runVerlPreflight(options: VerlPreflightOptions): Promise<LaunchManifest> {
  const runDirectory = resolve(options.runDirectory)
  const { config, sha256 } = readConfig(runDirectory)
  const list = loadVerlPatchList(options.patchList)
  const checks: CheckResult[] = [
    runDirectoryCheck(runDirectory, config),
    releaseCheck(config, options.sftRelease),
    toolsCheck(runDirectory, config),
  ]
  const python = options.python ?? config.settings.python
  const facts = probeHost({ python, nvidiaSmi: options.nvidiaSmi ?? 'nvidia-smi' })
  const verlRoot = options.verlRoot ? resolve(options.verlRoot) : (facts.python?.verl_root ?? null)
  if (verlRoot === null)
    checks.push({ name: 'verl_version', passed: false, detail: `${python} imports no VeRL and no --verl-root was given` })
  else {
    checks.push(checkVerlVersion({ verlRoot, list, metadataVersion: facts.python?.verl ?? null }))
    checks.push(checkVerlPatches({ verlRoot, list, kind: config.kind }))
  }
  checks.push(checkHost(facts, { ...options.host, gpus: config.settings.gpus_per_node, needVllm: config.kind === 'rloo' }))
  try {
    const { bundle, tasks } = readTaskBundle(runDirectory)
    checks.push(
      await checkTokenBudget({
        release: config.release.directory,
        mixture: config.release.kind === 'trajectory-mixture',
        settings: config.settings,
        tools: gradingToolSchemas(),
        metadataFields: bundle.metadata_fields,
        ...(config.kind === 'rloo' ? { tasks } : {}),
      }),
    )
  } catch (error) {
    checks.push({ name: 'token_budget', passed: false, detail: (error as Error).message })
  }
  checks.push(checkReferenceCheckpoint(config.settings.model_path))
  if (config.kind === 'rloo' || options.gateReport !== undefined)
    checks.push(
      checkGateReport(options.gateReport, config, {
        ...(options.gateSplit ? { split: options.gateSplit } : {}),
        ...(options.gateMinDenominator !== undefined ? { minDenominator: options.gateMinDenominator } : {}),
      }),
    )
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
    command: failed.length === 0 ? launchCommand(runDirectory, config) : null,
  }
  if (config.kind === 'sft')
    manifest.plan = sftLaunchPlan({ runDirectory, config, sftCommand: manifest.command ?? '(preflight failed: no command)' })
  writeFileSync(join(runDirectory, verlRunFiles.launchManifest), `${JSON.stringify(manifest, null, 2)}\n`)
  const script = join(runDirectory, verlRunFiles.launchScript)
  if (manifest.command)
    writeFileSync(
      script,
      `#!/bin/sh\n# Written by releaseops verl preflight (${manifest.checked_at}); see launch_manifest.json.\nset -e\n${manifest.command}\n${(
        manifest.plan ?? []
      )
        .slice(1)
        .map((step) => `# then ${step.name}: ${step.command}\n`)
        .join('')}`,
      { mode: 0o755 },
    )
  else rmSync(script, { force: true })
  return manifest
}
