/** @module server/routes/training: what the `/train/*` routes share: their options and the group's state. */
import type { OutboundPolicy } from '../../../io/outbound/outbound-policy.js'
import type { TrainingSupervisor } from '../../../train/training-supervisor.js'

export interface TrainingRoutesOptions {
  supervisor: TrainingSupervisor
  outputsRoot: string
  clustered: boolean
  /** Poll interval of `/train/live` (tests shorten it). */
  liveIntervalMs?: number
  maxLiveConnections?: number
  /** Checks the vLLM server URL a start names. */
  outbound: OutboundPolicy
}

/** The options plus the state the group keeps between requests: open live streams, the last plot. */
export interface TrainingRouteContext extends TrainingRoutesOptions {
  live: { connections: number }
  plot: { cache: { key: string; png: Buffer } | undefined }
}

export const trainingTags = ['training']
/** Operator reads: they show runs, logs and metrics, so they need the operator token (decision 0047). */
export const operatorAccess = { access: 'operator' as const }

export function trainingRouteContext(options: TrainingRoutesOptions): TrainingRouteContext {
  return { ...options, live: { connections: 0 }, plot: { cache: undefined } }
}
