/**
 * @module train/verl: a grading run directory where it is now (issue 37 item 2). `verl config` writes the
 * overrides for `run_root` (where it wrote the run, or `--root`); the preflight first checks they are
 * still what the settings give there (a hand edit is drift), then re-derives them, the launch environment
 * and the release's path for where the run directory actually is, so a run copied to a GPU box launches
 * from its new place. The release is found as recorded, else beside the run as it was (`release_from_run`).
 */
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { rlooOverrides, sftOverrides, verlEntryPoint } from './verl-overrides.js'
import type { VerlRunSettings } from './verl-run-settings.js'
import { runEnvironment, type VerlConfig } from './write-verl-config.js'

/** The launch settings the settings give for a run directory at `run` reading the release at `release`. */
export function derivedLaunch(
  settings: VerlRunSettings,
  config: Pick<VerlConfig, 'tool_parser'>,
  paths: { run: string; release: string },
): Pick<VerlConfig, 'overrides' | 'entry_point' | 'environment'> {
  return {
    overrides: settings.kind === 'sft' ? sftOverrides(settings, paths) : rlooOverrides(settings, paths, config.tool_parser),
    entry_point: verlEntryPoint(settings),
    environment: runEnvironment(paths.run),
  }
}

/** Where the config's overrides were written for (older configs: where the run is). */
export function recordedRoot(runDirectory: string, config: VerlConfig): string {
  return config.run_root ?? resolve(runDirectory)
}

/** The release as recorded when it is there, else where it sat relative to the run directory. */
function locateRelease(runDirectory: string, config: VerlConfig): string {
  const recorded = config.release.directory
  if (existsSync(join(recorded, 'export_report.json')) || config.release_from_run === undefined) return recorded
  const beside = resolve(runDirectory, config.release_from_run)
  return existsSync(join(beside, 'export_report.json')) ? beside : recorded
}

/** The config with its paths re-derived for the run directory's actual place (settings unchanged). */
export function locateRun(runDirectory: string, config: VerlConfig): VerlConfig {
  const run = resolve(runDirectory)
  const release = locateRelease(run, config)
  if (run === recordedRoot(run, config) && release === config.release.directory) return config
  return {
    ...config,
    release: { ...config.release, directory: release },
    run_root: run,
    ...derivedLaunch(config.settings, config, { run, release }),
  }
}
