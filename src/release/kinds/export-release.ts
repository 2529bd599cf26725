/**
 * @module release/kinds: the export shell every release kind runs: the kind plans (inside the failed-audit
 * guard, so a refused input writes a failed-audit JSON), writes into a staging directory, and the staging
 * directory is renamed into place only when the kind's write returned (`publishDirectory`).
 */

import { withFailedAudit } from '../../io/failed-audit.js'
import { publishDirectory } from '../../io/publish-directory.js'
import type { ReleaseExportSteps, ReleaseTarget } from '../contracts/release-kind.js'

export async function exportRelease<Options extends ReleaseTarget, Plan, Report>(
  steps: ReleaseExportSteps<Options, Plan, Report>,
  options: Options,
): Promise<Report> {
  return withFailedAudit(
    { stage: steps.stage, output: options.outputDir, ...(options.failedAudit ? { failedAudit: options.failedAudit } : {}) },
    async () => {
      const plan = await steps.plan(options)
      let report: Report | undefined
      await publishDirectory({
        target: options.outputDir,
        async build(staging) {
          report = await steps.write(plan, staging)
        },
      })
      return report as Report
    },
  )
}
