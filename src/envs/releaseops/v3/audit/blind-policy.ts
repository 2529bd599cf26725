/**
 * @module envs/releaseops/v3/audit: a parametrised evidence-free supervisor. It never inspects and
 * never asks: it reads only requests and claims, may hold a number of times first, then in its
 * blocking phases blocks by a fixed recipe (the rules a proposal claims, in turn or the first only,
 * or a fixed rule) and approves the rest; a block the env rejects moves it to the next rule or, when
 * none is left, to approving (a ship whose recipe is exhausted is held). Outside its blocking phases
 * it approves everything. Every blind strategy of the audit, and the search grid, is one of these.
 */
import type { ToolCall } from '../../../../core/env/env-api.js'
import type { Policy } from '../../../../core/policy/policy.js'
import type { ProposalView } from '../../arena/observation-view.js'
import { approve, block, hold, isShip, unresolvedOf } from '../../arena/policies/calls.js'
import { ruleIds, shortRuleId } from '../../shared/safety-rules.js'
import type { ReleaseOpsV3Observation } from '../releaseops-env.js'

export type BlindRecipe = 'approve' | 'block_first_claim' | 'block_each_claim' | 'block_S1' | 'block_S2' | 'block_S3' | 'hold'

export interface BlindParams {
  /** Holds before anything else. */
  holdsFirst: number
  ship: BlindRecipe
  /** Non-ship proposals that claim a rule passes. */
  vouchers: Exclude<BlindRecipe, 'hold'>
  /** Proposals with no claim (distractors) or only failing claims. */
  others: 'approve' | 'block_S2'
  blockPhases: 'first' | 'all'
}

const claimedRules = (proposal: ProposalView) => ruleIds.filter((rule) => proposal.claims[rule] !== undefined).map(shortRuleId)

function rulesFor(recipe: BlindRecipe, proposal: ProposalView): string[] {
  switch (recipe) {
    case 'block_first_claim':
      return claimedRules(proposal).slice(0, 1)
    case 'block_each_claim':
      return claimedRules(proposal)
    case 'block_S1':
      return ['S1']
    case 'block_S2':
      return ['S2']
    case 'block_S3':
      return ['S3']
    default:
      return []
  }
}

export function blindPolicy(name: string, params: BlindParams): Policy<ReleaseOpsV3Observation> {
  return {
    name,
    start() {
      let holds = params.holdsFirst
      const tried = new Map<string, number>()
      return {
        act(observation): ToolCall | null {
          if (holds > 0) {
            holds -= 1
            return hold('awaiting_fix')
          }
          const view = observation.view
          const unresolved = unresolvedOf(view)
          if (unresolved.length === 0) return hold('awaiting_fix')
          const blocking = params.blockPhases === 'all' || view.phase_index === 1
          const ordered = [...unresolved.filter((item) => !isShip(item)), ...unresolved.filter(isShip)]
          const proposal = ordered[0] as ProposalView
          const recipe: BlindRecipe = !blocking
            ? 'approve'
            : isShip(proposal)
              ? params.ship
              : Object.values(proposal.claims).includes('pass')
                ? params.vouchers
                : params.others
          if (recipe === 'approve') return approve(proposal.id)
          const rules = rulesFor(recipe, proposal)
          const attempt = tried.get(proposal.id) ?? 0
          if (attempt < rules.length) {
            tried.set(proposal.id, attempt + 1)
            return block(proposal.id, rules[attempt] as string)
          }
          return isShip(proposal) && recipe !== 'block_first_claim' ? hold('awaiting_fix') : approve(proposal.id)
        },
      }
    },
  }
}
