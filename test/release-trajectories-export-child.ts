/**
 * Child process of the crash-safety test: runs one trajectory export and prints each phase and progress
 * step on stdout (pipes are synchronous on Linux, so the parent sees a line before the child moves on).
 * argv: <options JSON>.
 */
import { type RunTrajectoryExportOptions, runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'

const options = JSON.parse(process.argv[2] as string) as RunTrajectoryExportOptions
process.stdout.write('started\n')
await runTrajectoryExport({
  ...options,
  onPhase: (phase) => process.stdout.write(`phase ${phase}\n`),
  onProgress: (split, done, total) => process.stdout.write(`progress ${split} ${done}/${total}\n`),
})
process.stdout.write('done\n')
