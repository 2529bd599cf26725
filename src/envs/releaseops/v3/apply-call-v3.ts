/** @module envs/releaseops/v3: routes a validated tool call to a v3 episode (the env and the generator's proof share it). */
import type { HoldReason, QuestionType } from '../shared/constants.js'
import type { ToolOutcome } from '../v2/episode-v2.js'
import { askWorker } from '../v2/evidence-actions.js'
import type { EpisodeV3 } from './episode-v3.js'
import { inspectArtifactV3 } from './evidence-actions-v3.js'

export function applyCallV3(episode: EpisodeV3, name: string, args: Record<string, string>): ToolOutcome {
  switch (name) {
    case 'inspect_pr_diff':
      return inspectArtifactV3(episode, name, args.pr_id as string)
    case 'inspect_ci_run':
      return inspectArtifactV3(episode, name, args.run_id as string)
    case 'inspect_ticket':
      return inspectArtifactV3(episode, name, args.ticket_id as string)
    case 'ask_worker':
      return askWorker(episode, args.worker_id as string, args.question_type as QuestionType)
    case 'approve_proposal':
      return episode.approve(args.proposal_id as string)
    case 'block_proposal':
      return episode.block(args.proposal_id as string, args.rule_id as string)
    case 'hold_release':
      return episode.hold(args.reason_code as HoldReason)
    default:
      return { error: { code: 'unknown_tool', message: `Unknown tool: ${name}` } }
  }
}
