/**
 * @module train/verl: `releaseops verl config`: a self-contained VeRL run directory, published atomically:
 * the task bundle (task files copied and hashed, tool schemas), a copy of the `releaseops_verl` Python
 * package (function tools, `compute_score`, agent loop), the agent-loop YAML (RLOO) and `verl_config.json`
 * (settings, release facts, Hydra overrides, entry point, and the sha256 of every file written), so
 * `verl preflight` can prove on the training machine that nothing changed since.
 */

import { cpSync, existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { carriedCode } from '../../core/errors/error-code.js'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory } from '../../io/publish-directory.js'
import { sha256File } from '../../io/sha256.js'
import { detectModelFamily, modelFamilyFacts, type VerlModelFamily } from './model-family.js'
import { type TaskBundleFiles, writeTaskBundle } from './task-bundle.js'
import {
  agentLoopYaml,
  rlooOverrides,
  sftOverrides,
  type VerlRunPaths,
  verlAgentLoopName,
  verlEntryPoint,
  verlRunFiles,
} from './verl-overrides.js'
import { readVerlRelease, releaseRunKind, type VerlRelease } from './verl-release.js'
import { type VerlRunSettings, type VerlRunSettingsInput, verlRunSettingsSchema } from './verl-run-settings.js'

export const verlConfigFormat = 'releaseops-verl-config-v1'

export interface VerlConfig {
  format: typeof verlConfigFormat
  kind: VerlRunSettings['kind']
  settings: VerlRunSettings
  /** The release as the overrides name it (from `run_root`); `release_from_run` finds it after a move. */
  release: VerlRelease
  /** Where the overrides put the run directory: where it was written, or `verl config --root`. */
  run_root?: string
  /** The release relative to the run directory: a run and release moved together still find each other. */
  release_from_run?: string
  trajectory_format: string
  /** The model's family: read from its chat template (`template`) or named by the settings (`setting`). */
  model_family: VerlModelFamily
  model_family_source: 'template' | 'setting'
  tool_parser: string
  agent_loop: string | null
  tools: string[]
  entry_point: string[]
  overrides: string[]
  environment: Record<string, string>
  /** Every file of the run directory but this one → sha256. */
  files: Record<string, string>
}

/** `python/releaseops_verl` of this installation (src/ and dist/ sit at the same depth). */
export function verlPythonPackageDirectory(): string {
  const directory = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'python', 'releaseops_verl')
  if (!existsSync(join(directory, 'verl_function_tools.py')))
    throw new ReleaseOpsError({
      code: 'python_package_missing',
      path: directory,
      message: `The VeRL adapters (python/releaseops_verl) are not installed at ${directory}.`,
    })
  return directory
}

export function parseVerlSettings(input: VerlRunSettingsInput): VerlRunSettings {
  const parsed = verlRunSettingsSchema.safeParse(input)
  if (parsed.success) return parsed.data
  const issues = parsed.error.issues.map((issue) => ({
    code: 'invalid_verl_settings',
    path: issue.path.join('.') || 'settings',
    message: issue.message,
  }))
  throw new InvalidInputError({
    code: 'invalid_verl_settings',
    path: issues[0]?.path ?? 'settings',
    message: `Invalid VeRL settings: ${issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')}.`,
    issues,
  })
}

/** Problems of a release for a run (empty when it fits): run kind, format id, thinking flag. */
export function releaseFitProblems(release: VerlRelease, settings: VerlRunSettings): { code: string; message: string }[] {
  const problems: { code: string; message: string }[] = []
  const feeds = releaseRunKind[release.kind]
  if (feeds !== settings.kind)
    problems.push({
      code: 'release_kind_mismatch',
      message:
        feeds === null
          ? `an ${release.kind} release holds stage2 rows the agent loop refuses; build an rl-cascade mixture from it (release mixture build --family rl-cascade) for ${settings.kind}`
          : `a ${release.kind} release feeds a ${feeds} run, not ${settings.kind}`,
    })
  if (release.trajectory_format !== nativeToolTrajectoryFormat)
    problems.push({
      code: 'trajectory_format_mismatch',
      message: `the release's trajectory format is ${String(release.trajectory_format)}, the run's ${nativeToolTrajectoryFormat}`,
    })
  if (release.enable_thinking !== null && release.enable_thinking !== settings.enable_thinking)
    problems.push({
      code: 'enable_thinking_mismatch',
      message: `the release was built with enable_thinking=${release.enable_thinking}, the config says ${settings.enable_thinking}: ${release.enable_thinking ? 'add --enable-thinking' : 'drop --enable-thinking'} to verl config`,
    })
  return problems
}

/** The launch environment of a grading run whose directory is at `run`. */
export function runEnvironment(run: string): Record<string, string> {
  return { PYTHONPATH: run, RELEASEOPS_VERL_TASK: join(run, verlRunFiles.task) }
}

/** Relative path → sha256 of every file under `root` (sorted), skipping `except`. */
export function hashRunFiles(
  root: string,
  except: readonly string[] = [
    verlRunFiles.config,
    verlRunFiles.launchManifest,
    verlRunFiles.launchScript,
    verlRunFiles.gateScript,
  ],
): Record<string, string> {
  const hashes: Record<string, string> = {}
  const walk = (directory: string) => {
    for (const name of readdirSync(directory).sort()) {
      const path = join(directory, name)
      const key = relative(root, path).split('\\').join('/')
      if (except.includes(key)) continue
      if (statSync(path).isDirectory()) walk(path)
      else hashes[key] = sha256File(path)
    }
  }
  walk(root)
  return hashes
}

/** The run's model family: the checkpoint's own template decides; a named family must agree with it. */
export function resolveModelFamily(settings: VerlRunSettings): { family: VerlModelFamily; source: 'template' | 'setting' } {
  const detected = detectModelFamily(settings.model_path)
  if (detected !== null && settings.model_family !== undefined && detected !== settings.model_family)
    throw new InvalidInputError({
      code: 'model_family_mismatch',
      path: settings.model_path,
      message: `The checkpoint's chat template is ${detected}'s, but the settings name ${settings.model_family}.`,
      issues: [],
    })
  if (detected !== null) return { family: detected, source: 'template' }
  if (settings.model_family !== undefined) return { family: settings.model_family, source: 'setting' }
  throw new InvalidInputError({
    code: 'model_family_unknown',
    path: settings.model_path,
    message: `${settings.model_path} ships no chat template of a known family (qwen3, qwen3.5, qwen3.5-nothink); name one with --model-family.`,
    issues: [],
  })
}

export async function runVerlConfig(options: {
  settings: VerlRunSettingsInput
  release: string
  outputDir: string
  /** The run directory's absolute path on the training machine (default: where it is written). */
  root?: string
  task: Omit<TaskBundleFiles, 'datasets'>
}): Promise<VerlConfig> {
  const settings = parseVerlSettings(options.settings)
  const target = resolve(options.outputDir)
  if (isNonEmptyDirectory(target)) throw outputExistsError(target)
  const release = readVerlRelease(options.release)
  const problems = releaseFitProblems(release, settings)
  if (problems.length > 0) {
    const first = problems[0] as { code: string; message: string }
    throw new InvalidInputError({
      code: carriedCode(first.code),
      path: release.directory,
      message: `Release ${release.directory} does not fit this ${settings.kind} run: ${problems.map((problem) => problem.message).join('; ')}.`,
      issues: problems.map((problem) => ({ ...problem, path: release.directory })),
    })
  }
  const { family, source } = resolveModelFamily(settings)
  const toolParser = modelFamilyFacts[family].tool_parser
  const runRoot = resolve(options.root ?? target)
  const releaseFromRun = relative(target, release.directory)
  const paths: VerlRunPaths = { run: runRoot, release: options.root ? resolve(runRoot, releaseFromRun) : release.directory }
  let config: VerlConfig | undefined
  await publishDirectory({
    target,
    build(staging) {
      const { bundle } = writeTaskBundle({
        directory: staging,
        files: { ...options.task, datasets: release.datasets },
        enableThinking: settings.enable_thinking,
        chatFormat: modelFamilyFacts[family].chat_format,
      })
      const packageDirectory = verlPythonPackageDirectory()
      cpSync(packageDirectory, join(staging, verlRunFiles.package), {
        recursive: true,
        filter: (source) => !/(^|[\\/])(tests|__pycache__)([\\/]|$)|\.pyc$/.test(relative(packageDirectory, source)),
      })
      if (settings.kind === 'rloo') writeFileSync(join(staging, verlRunFiles.agentLoop), agentLoopYaml(settings))
      config = {
        format: verlConfigFormat,
        kind: settings.kind,
        settings,
        release: { ...release, directory: paths.release },
        run_root: runRoot,
        release_from_run: releaseFromRun,
        trajectory_format: nativeToolTrajectoryFormat,
        model_family: family,
        model_family_source: source,
        tool_parser: toolParser,
        agent_loop: settings.kind === 'rloo' ? verlAgentLoopName : null,
        tools: [...bundle.tools],
        entry_point: verlEntryPoint(settings),
        overrides: settings.kind === 'sft' ? sftOverrides(settings, paths) : rlooOverrides(settings, paths, toolParser),
        environment: runEnvironment(runRoot),
        files: hashRunFiles(staging),
      }
      writeFileSync(join(staging, verlRunFiles.config), `${JSON.stringify(config, null, 2)}\n`)
    },
  })
  return config as VerlConfig
}
