/**
 * @module train/verl: `releaseops verl preflight` for an Arena run (`verl config --env releaseops-v3`), on
 * the machine that will train, like the grading run's: every file as written and the overrides still what
 * the settings give, the tool schemas the env's, the checkpoint's template still the run's family, the
 * installed VeRL (version, declared patches), the host and everything the trainer imports (with the Arena
 * agent loop), the reference checkpoint, and the env server the rollouts will use: `/health` answers, it
 * serves `releaseops-v3`, and it has room for one step's sessions (train_batch_size × rollout.n). Writes
 * `launch_manifest.json` either way and `launch.sh` only on a pass.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { envTools } from '../../agent/episode-prompt.js'
import { makeEnv } from '../../envs/index.js'
import { sha256Hex } from '../../io/sha256.js'
import { checkHost, probeHost } from './host-probe.js'
import { modelFamilyFacts } from './model-family.js'
import { templateFamilyProblems } from './preflight-run-checks.js'
import { checkReferenceCheckpoint } from './reference-provenance.js'
import { type LaunchManifest, launchCommand, launchManifestFormat, type VerlPreflightOptions } from './run-verl-preflight.js'
import { verlEntryImports, verlEntryPoint, verlRunFiles } from './verl-overrides.js'
import { type CheckResult, checkVerlPatches, checkVerlVersion, loadVerlPatchList, noPatches } from './verl-patches.js'
import { verlRunSettingsSchema } from './verl-run-settings.js'
import { type ArenaVerlConfig, arenaEnvId, arenaEnvironment, arenaFiles, arenaOverrides } from './write-arena-config.js'
import { hashRunFiles } from './write-verl-config.js'

function runDirectoryCheck(run: string, config: ArenaVerlConfig): CheckResult {
  const now = hashRunFiles(run)
  const changed = [...new Set([...Object.keys(now), ...Object.keys(config.files)])].filter(
    (file) => now[file] !== config.files[file],
  )
  const problems = changed.length > 0 ? [`changed since \`verl config\`: ${changed.sort().slice(0, 10).join(', ')}`] : []
  const parsed = verlRunSettingsSchema.safeParse(config.settings)
  if (!parsed.success) problems.push('settings no longer pass validation')
  else {
    const expected = {
      overrides: arenaOverrides(parsed.data, run, config.tool_parser),
      entry_point: verlEntryPoint(parsed.data),
      environment: arenaEnvironment(run),
    }
    for (const key of Object.keys(expected) as (keyof typeof expected)[])
      if (JSON.stringify(expected[key]) !== JSON.stringify(config[key]))
        problems.push(`verl_config.json ${key} differ from what its settings give`)
  }
  return {
    name: 'run_directory',
    passed: problems.length === 0,
    detail: problems.length === 0 ? `${Object.keys(now).length} files as written` : problems.join('; '),
    facts: { files: Object.keys(now).length, rows: config.rows },
  }
}

function toolsCheck(run: string, config: ArenaVerlConfig): CheckResult {
  const problems: string[] = []
  const expected = envTools(makeEnv(arenaEnvId).spec)
  try {
    if (readFileSync(join(run, arenaFiles.tools), 'utf8') !== `${JSON.stringify(expected, null, 2)}\n`)
      problems.push(`${arenaFiles.tools} differs from the ${arenaEnvId} tools of this installation`)
  } catch (error) {
    problems.push((error as Error).message)
  }
  const parser = modelFamilyFacts[config.model_family]?.tool_parser
  if (config.tool_parser !== parser)
    problems.push(`the rollout parser is ${config.tool_parser}, ${config.model_family} needs ${String(parser)}`)
  const { detected, problems: template } = templateFamilyProblems(config)
  problems.push(...template)
  return {
    name: 'tools_and_format',
    passed: problems.length === 0,
    detail:
      problems.length === 0 ? `${expected.length} ${arenaEnvId} tools; ${config.model_family} → ${parser}` : problems.join('; '),
    facts: { tools: config.tools, model_family: config.model_family, template_family: detected, parser: config.tool_parser },
  }
}

/** The env server behind the run's URL: healthy, serving the Arena, with room for one step's sessions. */
async function checkEnvServer(config: ArenaVerlConfig, fetchImpl: typeof fetch = fetch): Promise<CheckResult> {
  const base = config.env_url.replace(/^ws/, 'http').replace(/\/ws$/, '')
  const needed = config.settings.train_batch_size * config.settings.rollout_n
  const facts: Record<string, unknown> = { env_url: config.env_url, sessions_per_step: needed }
  try {
    const health = (await (await fetchImpl(`${base}/health`, { signal: AbortSignal.timeout(10_000) })).json()) as {
      status?: string
      active_sessions?: number
      max_sessions?: number
    }
    const metadata = (await (await fetchImpl(`${base}/metadata`, { signal: AbortSignal.timeout(10_000) })).json()) as {
      name?: string
    }
    Object.assign(facts, { health, env: metadata.name ?? null })
    const problems: string[] = []
    if (health.status !== 'healthy') problems.push(`${base}/health says ${String(health.status)}`)
    if (metadata.name !== arenaEnvId) problems.push(`${base} serves ${String(metadata.name)}, not ${arenaEnvId}`)
    const room = (health.max_sessions ?? 0) - (health.active_sessions ?? 0)
    if (room < needed)
      problems.push(
        `the server has room for ${room} sessions, one step opens ${needed} (train_batch_size × rollout.n; raise --max-sessions or add --workers)`,
      )
    return {
      name: 'env_server',
      passed: problems.length === 0,
      detail: problems.length === 0 ? `${base}: ${arenaEnvId}, room for ${room} ≥ ${needed} sessions` : problems.join('; '),
      facts,
    }
  } catch (error) {
    return { name: 'env_server', passed: false, detail: `${base} did not answer: ${(error as Error).message}`, facts }
  }
}

export async function runArenaPreflight(
  options: Omit<VerlPreflightOptions, 'sftRelease' | 'gateReport' | 'gateSplit' | 'gateMinDenominator'>,
  config: ArenaVerlConfig,
  bytes: Buffer,
): Promise<LaunchManifest> {
  const run = resolve(options.runDirectory)
  const checks: CheckResult[] = [runDirectoryCheck(run, config), toolsCheck(run, config)]
  const python = options.python ?? config.settings.python
  const facts = probeHost({
    python,
    nvidiaSmi: options.nvidiaSmi ?? 'nvidia-smi',
    imports: verlEntryImports(config.settings, 'releaseops_verl.arena_agent_loop'),
    env: config.environment,
  })
  const list = options.patchList === undefined ? null : loadVerlPatchList(options.patchList)
  const verlRoot = options.verlRoot ? resolve(options.verlRoot) : (facts.python?.verl_root ?? null)
  if (verlRoot === null)
    checks.push({ name: 'verl_version', passed: false, detail: `${python} imports no VeRL and no --verl-root was given` })
  else {
    checks.push(checkVerlVersion({ verlRoot, list, metadataVersion: facts.python?.verl ?? null }))
    checks.push(checkVerlPatches({ verlRoot, list: list ?? noPatches(), kind: 'rloo' }))
  }
  checks.push(checkHost(facts, { ...options.host, gpus: config.settings.gpus_per_node, needVllm: true }))
  checks.push(checkReferenceCheckpoint(config.settings.model_path))
  checks.push(await checkEnvServer(config))
  const failed = checks.filter((check) => !check.passed).map((check) => check.name)
  const manifest: LaunchManifest = {
    format: launchManifestFormat,
    status: failed.length === 0 ? 'passed' : 'failed',
    kind: 'rloo',
    run_directory: run,
    config_sha256: sha256Hex(bytes),
    checked_at: (options.now ?? (() => new Date()))().toISOString(),
    checks,
    failed,
    command: failed.length === 0 ? launchCommand(run, config, facts.python?.executable) : null,
  }
  writeFileSync(join(run, verlRunFiles.launchManifest), `${JSON.stringify(manifest, null, 2)}\n`)
  const script = join(run, verlRunFiles.launchScript)
  if (manifest.command)
    writeFileSync(
      script,
      `#!/bin/sh\n# Written by releaseops verl preflight (${manifest.checked_at}); see launch_manifest.json.\nset -e\n${manifest.command}\n`,
      {
        mode: 0o755,
      },
    )
  else rmSync(script, { force: true })
  return manifest
}
