/** @module release/trajectories: the public surface of the trajectory line (loader, validator, format, row type). */

export { type ExportReportCore, exportReportSchema } from './export-report.js'
export { type LoadedTrajectoryRelease, loadTrajectoryRelease, validationProblems } from './load-trajectory-release.js'
export { renderTrainingSpans } from './render/render-training-spans.js'
export { type TrajectoryClass, trajectoryClasses, trajectoryClassOf } from './trajectory-class.js'
export { trajectoryCollectFormat, trajectoryFormat, trajectoryReleaseFormat, trajectoryStage } from './trajectory-format.js'
export { type TrajectoryMessage, type TrajectoryRow, trajectoryRowSchema } from './trajectory-row.js'
export {
  type TrajectoryValidationReport,
  type ValidateTrajectoryReleaseOptions,
  validateTrajectoryRelease,
} from './validate-trajectory-release.js'
