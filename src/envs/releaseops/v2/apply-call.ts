/** @module envs/releaseops/v2: routes a validated tool call to the episode (the env and the generator's proof share it). */
import type { HoldReason, QuestionType } from '../shared/constants.js'
import type { EpisodeV2, ToolOutcome } from './episode-v2.js'
import { askWorker, inspectArtifact } from './evidence-actions.js'

export function applyCall(episode: EpisodeV2, name: string, args: Record<string, string>): ToolOutcome {
  switch (name) {
    case 'inspect_pr_diff':
      return inspectArtifact(episode, name, args.pr_id as string)
    case 'inspect_ci_run':
      return inspectArtifact(episode, name, args.run_id as string)
    case 'inspect_ticket':
      return inspectArtifact(episode, name, args.ticket_id as string)
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
