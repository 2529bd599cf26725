/**
 * @module train/verl: the preflight's checks of what `verl config` wrote: the run directory (every file
 * as written, settings that still give the same launch), the release it names (and the SFT release of
 * the reference), and the tools, trajectory format and rollout parser against the checkpoint's template.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { nativeToolTrajectoryFormat } from '../../envs/grading/native-prompt.js'
import { derivedLaunch, recordedRoot } from './locate-run.js'
import { detectModelFamily, modelFamilyFacts } from './model-family.js'
import { gradingToolSchemas } from './task-bundle.js'
import { verlRunFiles } from './verl-overrides.js'
import type { CheckResult } from './verl-patches.js'
import { readVerlRelease } from './verl-release.js'
import { verlRunSettingsSchema } from './verl-run-settings.js'
import { hashRunFiles, releaseFitProblems, type VerlConfig } from './write-verl-config.js'

/** The launch settings `verl config` derives from the settings, re-derived: a hand edit shows as a difference. */
function configDrift(runDirectory: string, config: VerlConfig): string[] {
  const parsed = verlRunSettingsSchema.safeParse(config.settings)
  if (!parsed.success) return ['settings no longer pass validation']
  // Compared where they were written for: a run directory that moved is no drift (locate-run.ts).
  const paths = { run: recordedRoot(runDirectory, config), release: config.release.directory }
  const expected = derivedLaunch(parsed.data, config, paths)
  return (Object.keys(expected) as (keyof typeof expected)[])
    .filter((key) => JSON.stringify(expected[key]) !== JSON.stringify(config[key]))
    .map((key) => `verl_config.json ${key} differ from what its settings give`)
}

export function runDirectoryCheck(runDirectory: string, config: VerlConfig): CheckResult {
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

export function releaseCheck(config: VerlConfig, sftRelease: string | undefined): CheckResult {
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

/** The checkpoint on this machine decides: its template must still be the family the run was written for. */
export function templateFamilyProblems(
  config: Pick<VerlConfig, 'model_family' | 'model_family_source'> & { settings: { model_path: string } },
): { detected: ReturnType<typeof detectModelFamily>; problems: string[] } {
  const detected = detectModelFamily(config.settings.model_path)
  const problems: string[] = []
  if (detected !== null && detected !== config.model_family)
    problems.push(`the checkpoint's chat template is ${detected}'s, the run was written for ${config.model_family}`)
  if (detected === null && config.model_family_source === 'template')
    problems.push(`the checkpoint at ${config.settings.model_path} no longer ships the ${config.model_family} template`)
  return { detected, problems }
}

export function toolsCheck(runDirectory: string, config: VerlConfig): CheckResult {
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
  const { detected, problems: template } = templateFamilyProblems(config)
  problems.push(...template)
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
