/**
 * @module release/trajectories: `releaseops release trajectories collect`: the think-free hand-off to an
 * external reasoning writer. Every planned trajectory is built through the env and written as one JSONL
 * line (`collect-line.ts`) into per-split shards of `--shard-size` lines (`think-<split>-NNN.jsonl`),
 * with `collect_report.json` listing every shard's rows and SHA-256. Published atomically like a release.
 */

import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { InvalidInputError } from '../../core/errors/invalid-input-error.js'
import { BufferedFileWriter } from '../../io/buffered-file-writer.js'
import { withFailedAudit } from '../../io/failed-audit.js'
import { isNonEmptyDirectory, outputExistsError, publishDirectory, recoverStalePublications } from '../../io/publish-directory.js'
import { type SplitName, splitNames } from '../contracts/canonical-record.js'
import { checkDatasetName } from '../contracts/dataset-name.js'
import type { TaskOptions } from '../planning/task-options.js'
import { TrajectoryBuilder } from './build-trajectory.js'
import { collectLine } from './collect-line.js'
import { loadTrajectoryPlan } from './plan-trajectories.js'
import { type TrajectoryClass, trajectoryClasses } from './trajectory-class.js'
import { defaultShardSize, trajectoryCollectFormat, trajectoryFormat } from './trajectory-format.js'

export interface RunTrajectoryCollectOptions extends TaskOptions {
  canonical: string
  collectDir: string
  shardSize?: number
  allowLabelGaps?: readonly string[]
  allowAnyLabelGap?: boolean
  failedAudit?: string
  onProgress?: (split: SplitName, done: number, total: number) => void
}

export interface CollectReport {
  format: typeof trajectoryCollectFormat
  trajectory_format: string
  dataset: string
  shard_size: number
  splits: Record<SplitName, { rows: number; by_class: Record<TrajectoryClass, number>; tool_calls: number; shards: number }>
  shards: { file: string; split: SplitName; rows: number; sha256: string }[]
  [key: string]: unknown
}

const shardName = (split: SplitName, index: number) => `think-${split}-${String(index).padStart(3, '0')}.jsonl`

export async function runTrajectoryCollect(options: RunTrajectoryCollectOptions): Promise<CollectReport> {
  return withFailedAudit(
    {
      stage: 'trajectories collect',
      output: options.collectDir,
      ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}),
    },
    async () => {
      if (isNonEmptyDirectory(options.collectDir)) throw outputExistsError(options.collectDir)
      recoverStalePublications(options.collectDir)
      const dataset = checkDatasetName(options.dataset)
      const shardSize = options.shardSize ?? defaultShardSize
      if (!Number.isSafeInteger(shardSize) || shardSize < 1)
        throw new InvalidInputError({
          code: 'invalid_option',
          path: '--shard-size',
          message: '--shard-size must be a positive integer.',
          issues: [],
        })
      const { loaded, canonical, plan } = loadTrajectoryPlan(options)
      const builder = new TrajectoryBuilder(loaded.task)
      const report: CollectReport = {
        format: trajectoryCollectFormat,
        trajectory_format: trajectoryFormat,
        dataset,
        shard_size: shardSize,
        fill: {
          think: 'the thought before the terminal answer',
          tool_think: 'one thought per tool-call turn, in order (as many as tool_calls)',
          next: 'releaseops release trajectories export --think-source file:<this directory or a file of filled lines>',
        },
        inputs: {
          canonical_sha256: canonical.sha256,
          registry_sha256: loaded.hashes.registry,
          corpus_sha256: loaded.hashes.corpus,
          task_config_sha256: loaded.hashes.task_config,
          grading_sha256: loaded.hashes.grading,
        },
        splits: {} as CollectReport['splits'],
        shards: [],
      }
      await publishDirectory({
        target: options.collectDir,
        build(staging) {
          for (const split of splitNames) {
            const sources = plan.splits[split]
            const classes = Object.fromEntries(trajectoryClasses.map((name) => [name, 0])) as Record<TrajectoryClass, number>
            let calls = 0
            let shards = 0
            for (let start = 0; start < sources.length; start += shardSize) {
              const file = shardName(split, shards++)
              const writer = new BufferedFileWriter(join(staging, file), 1 << 18)
              const batch = sources.slice(start, start + shardSize)
              try {
                for (const source of batch) {
                  const trajectory = builder.build(source)
                  classes[trajectory.trajectoryClass]++
                  calls += trajectory.calls.length
                  writer.write(`${JSON.stringify(collectLine(trajectory, split))}\n`)
                }
              } finally {
                writer.close()
              }
              report.shards.push({ file, split, rows: batch.length, sha256: writer.sha256() })
              options.onProgress?.(split, start + batch.length, sources.length)
            }
            report.splits[split] = { rows: sources.length, by_class: classes, tool_calls: calls, shards }
          }
          writeFileSync(join(staging, 'collect_report.json'), `${JSON.stringify(report, null, 2)}\n`)
        },
      })
      return report
    },
  )
}
