/** @module server/routes/original: what the original Space's aliases share: their options and query types. */
import type { FastifyReply } from 'fastify'
import { z } from 'zod'
import type { EvalJobRunner } from '../../../eval/eval-job.js'
import type { OutboundPolicy } from '../../../io/outbound/outbound-policy.js'
import type { TrainingStartRequest } from '../../../train/training-request.js'
import type { TrainingSupervisor } from '../../../train/training-supervisor.js'
import { startTraining } from '../operations-support.js'

export interface OriginalRoutesOptions {
  supervisor: TrainingSupervisor
  jobs: EvalJobRunner
  clustered: boolean
  /** The `POST /hub/push` handler's work, shared so the alias is the same push. */
  push: (body: { repo: string; path: string; create_repo: boolean }) => Promise<unknown>
  /** Checks the URLs a request names (eval endpoints, the vLLM server). */
  outbound: OutboundPolicy
}

export const originalTags = ['original Space aliases']
export const queryBoolean = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')
export const queryNumber = z.coerce.number()

/** Starts a run as `POST /train/start` does, answering with the original's message. */
export async function startFromAlias(
  context: OriginalRoutesOptions,
  request: TrainingStartRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { supervisor, clustered, outbound } = context
  const status = await startTraining({ supervisor, clustered, request, outbound })
  return reply
    .code(202)
    .send({ started: true, message: 'Training started. Poll /train/status or /train/logs for progress.', ...status })
}
