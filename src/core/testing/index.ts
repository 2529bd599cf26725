export { CallSampler, harvestStrings } from './call-sampler.js'
export { degenerateStrategies } from './degenerate-strategies.js'
export { type ConformanceCase, ConformanceError, type ConformanceOptions, envConformanceCases } from './env-conformance.js'
export {
  type AuditRow,
  type AuditSearch,
  type AuditStrategy,
  type ExploitAuditOptions,
  type ExploitAuditReport,
  formatExploitAudit,
  type LadderEntry,
  playAuditEpisode,
  runExploitAudit,
  wilsonMeanInterval,
} from './exploit-audit.js'
