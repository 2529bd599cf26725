/** @module envs/releaseops/arena: routes a validated tool call to the episode (the env and the generator's proof share it). */
import type { HoldReason, QuestionType } from '../shared/constants.js'
import type { ArenaEpisode, ToolOutcome } from './episode.js'
import { askWorker, type EvidenceTool, inspectArtifact } from './evidence-actions.js'

type Inspect<E extends ArenaEpisode> = (episode: E, tool: EvidenceTool, id: string) => ToolOutcome

/** The call router of a version, given its inspection tool (v3's reads joint evidence). */
export function callRouter<E extends ArenaEpisode>(
  inspect: Inspect<E>,
): (episode: E, name: string, args: Record<string, string>) => ToolOutcome {
  return (episode, name, args) => {
    switch (name) {
      case 'inspect_pr_diff':
        return inspect(episode, name, args.pr_id as string)
      case 'inspect_ci_run':
        return inspect(episode, name, args.run_id as string)
      case 'inspect_ticket':
        return inspect(episode, name, args.ticket_id as string)
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
}

export const applyCall = callRouter<ArenaEpisode>(inspectArtifact)
