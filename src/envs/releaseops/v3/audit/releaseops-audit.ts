/**
 * @module envs/releaseops/v3/audit: the exploit audit `releaseops env audit --env releaseops-v3` runs
 * (and tests run): the degenerate strategies every env gets, v3's named evidence-free strategies (the
 * ones that beat v2 among them), and a grid of parametrised blind supervisors for the search.
 */
import type { DatasetRow } from '../../../../core/env/env-dataset.js'
import type { Policy } from '../../../../core/policy/policy.js'
import type { EnvAudit } from '../../../../core/registry/env-registry.js'
import { degenerateStrategies } from '../../../../core/testing/degenerate-strategies.js'
import { type AuditStrategy, playAuditEpisode } from '../../../../core/testing/exploit-audit.js'
import { approve, inspectByPrefix } from '../../arena/policies/calls.js'
import { rewards } from '../../shared/rewards.js'
import { heldOutMixesV3 } from '../archetype-mixes.js'
import { datasetV3 } from '../dataset.js'
import { heldOutFamiliesV3 } from '../families/index.js'
import { ReleaseOpsV3Env, type ReleaseOpsV3Observation } from '../releaseops-env.js'
import { type BlindParams, type BlindRecipe, blindPolicy } from './blind-policy.js'
import { memoriserPlans } from './memoriser-plans.js'
import { perturbedReaders } from './perturbed-readers.js'

type Strategy = AuditStrategy<ReleaseOpsV3Observation>

/** A named strategy whose policy carries the same name. */
const named = (name: string, description: string, make: (name: string) => Policy<ReleaseOpsV3Observation>): Strategy => ({
  name,
  description,
  policy: () => make(name),
})

const blind = (name: string, description: string, params: Partial<BlindParams>): Strategy => {
  const full: BlindParams = {
    holdsFirst: 0,
    ship: 'approve',
    vouchers: 'approve',
    others: 'approve',
    blockPhases: 'first',
    ...params,
  }
  return { name, description, policy: () => blindPolicy(name, full) }
}

/** Stalls on a free repeat: a re-read of the first artifact (or a repeated question) until the env stops it. */
function stallPolicy(name: string, mode: 'reread' | 'ask'): Policy<ReleaseOpsV3Observation> {
  return {
    name,
    start({ observation }) {
      const first = observation.view.proposals[0]
      const reread = first?.refs[0] === undefined ? undefined : inspectByPrefix(first.refs[0])
      return {
        act: () =>
          mode === 'reread' && reread
            ? reread
            : first
              ? { name: 'ask_worker', arguments: { worker_id: first.worker, question_type: 'policy_basis' } }
              : null,
      }
    },
  }
}

/** Reads evidence it never acts on: inspects what the proposals cite while evidence lasts, then stops or approves everything. */
function ignoredEvidencePolicy(name: string, then: 'stop' | 'approve'): Policy<ReleaseOpsV3Observation> {
  return {
    name,
    start() {
      const read = new Set<string>()
      return {
        act(observation) {
          const view = observation.view
          if (view.evidence_actions_remaining > 0 && view.review_budget_remaining > 0) {
            const ref = view.proposals.flatMap((proposal) => proposal.refs).find((item) => !read.has(item))
            if (ref !== undefined) {
              read.add(ref)
              return inspectByPrefix(ref) ?? null
            }
          }
          if (then === 'stop') return null
          const open = view.proposals.filter((proposal) => proposal.status === 'unresolved')
          const next = open.find((proposal) => proposal.request !== 'ship_release_candidate') ?? open[0]
          return next ? approve(next.id) : null
        },
      }
    },
  }
}

function namedStrategies(): Strategy[] {
  return [
    blind('approve-everything', 'approve every proposal in order, non-ships first', {}),
    blind('v2-exploit-each-claim', 'phase 1: block every vouching proposal citing its claimed rules in turn; then approve', {
      ship: 'block_each_claim',
      vouchers: 'block_each_claim',
    }),
    blind('v2-exploit-first-claim', 'the same, citing only the first claimed rule', {
      ship: 'block_first_claim',
      vouchers: 'block_first_claim',
    }),
    blind('block-everything-S2', 'block every proposal citing S2, then approve', {
      ship: 'block_S2',
      vouchers: 'block_S2',
      others: 'block_S2',
    }),
    blind('block-ship-S3-every-phase', 'block every ship citing S3, approve the rest', { ship: 'block_S3', blockPhases: 'all' }),
    blind('hold-then-approve', 'hold once, then approve everything', { holdsFirst: 1 }),
    blind('hold-twice-then-approve', 'hold twice, then approve everything', { holdsFirst: 2 }),
    blind('resolve-then-hold', 'approve the non-ships, hold for a revision, then approve', { ship: 'hold' }),
    named('stall-reread', 'inspect one artifact, then re-read it forever', (name) => stallPolicy(name, 'reread')),
    named('stall-repeat-question', 'ask one question, then repeat it forever', (name) => stallPolicy(name, 'ask')),
    named(
      'farm-discovery-bonus-then-stop',
      'inspect what the proposals cite for the +0.2 bonuses, then stop calling tools',
      (name) => ignoredEvidencePolicy(name, 'stop'),
    ),
    named('inspect-then-approve-anyway', 'inspect what the proposals cite, ignore it, approve everything', (name) =>
      ignoredEvidencePolicy(name, 'approve'),
    ),
    named('approve-first-proposal-only', 'approve one proposal, then stop calling tools', (name) => ({
      name,
      start: ({ observation }) => {
        let done = false
        const first = observation.view.proposals[0]
        return {
          act: () => {
            if (done || !first) return null
            done = true
            return approve(first.id)
          },
        }
      },
    })),
  ]
}

/**
 * The strongest evidence-free learner we know how to write: it learns, on train rows, which blind
 * strategy scores best for each (family, difficulty) slice (a model can tell both from the texts and the
 * budget), then plays that one. Still no inspection, no question.
 */
function slicePriorStrategy(arms: readonly Strategy[], trainRows: number): Strategy {
  return {
    name: 'slice-prior-blind',
    description: `per (family, difficulty), the best of ${arms.length} blind strategies on ${trainRows} train rows`,
    policy: () => {
      const env = new ReleaseOpsV3Env()
      const totals = new Map<string, number[]>()
      const rows = datasetV3.rows('train').slice(0, trainRows)
      const policies = arms.map((arm) => arm.policy())
      for (const row of rows) {
        const key = `${row.family}/${row.difficulty}`
        const sums = totals.get(key) ?? arms.map(() => 0)
        policies.forEach((policy, index) => {
          sums[index] = (sums[index] as number) + playAuditEpisode(env, policy, datasetV3.toResetParams(row))
        })
        totals.set(key, sums)
      }
      const best = new Map([...totals].map(([key, sums]) => [key, sums.indexOf(Math.max(...sums))]))
      return {
        name: 'slice-prior-blind',
        start(start) {
          const state = start.env.state()
          const arm = policies[best.get(`${state.family}/${state.difficulty}`) ?? 0] as Policy<ReleaseOpsV3Observation>
          return arm.start(start)
        },
      }
    },
  }
}

const shipRecipes: BlindRecipe[] = [
  'approve',
  'block_first_claim',
  'block_each_claim',
  'block_S1',
  'block_S2',
  'block_S3',
  'hold',
]
const voucherRecipes: BlindParams['vouchers'][] = ['approve', 'block_first_claim', 'block_each_claim']

/** The search grid: 2 × 7 × 3 × 2 × 2 = 168 blind supervisors. */
function blindSearchGrid(): Strategy[] {
  const grid: Strategy[] = []
  for (const holdsFirst of [0, 1])
    for (const ship of shipRecipes)
      for (const vouchers of voucherRecipes)
        for (const others of ['approve', 'block_S2'] as const)
          for (const blockPhases of ['first', 'all'] as const) {
            const name = `blind[h${holdsFirst},ship=${ship},vouch=${vouchers},other=${others},${blockPhases}]`
            grid.push(blind(name, 'parametrised evidence-free supervisor', { holdsFirst, ship, vouchers, others, blockPhases }))
          }
  return grid
}

const isHeldOutMix = (row: DatasetRow) => (heldOutMixesV3 as readonly unknown[]).includes(row.archetype_mix)
const isHeldOutFamily = (row: DatasetRow) => (heldOutFamiliesV3 as readonly unknown[]).includes(row.family)

export const releaseOpsV3Audit: EnvAudit<ReleaseOpsV3Observation> = {
  split: 'eval',
  ladder: ['naive', 'rule', 'phase-aware-rule', 'evidence-heuristic', 'dissent-first-reader', 'oracle'],
  evidenceBaseline: 'dissent-first-reader',
  ceiling: 'oracle',
  exploits: () => {
    const named = namedStrategies()
    const arms = named.filter((item) =>
      ['approve-everything', 'v2-exploit-first-claim', 'hold-twice-then-approve', 'stall-repeat-question'].includes(item.name),
    )
    const never = degenerateStrategies<ReleaseOpsV3Observation>()
    return [...never, ...named, slicePriorStrategy([...arms, never[0] as Strategy], 450)]
  },
  searchCandidates: blindSearchGrid,
  maxExploitReward: 0,
  margin: 0.3,
  slices: [
    {
      name: 'eval_seen',
      measures: 'training families under training mixes, new seeds',
      heldOut: false,
      catchesMemoriser: false,
      // On `eval` these are the eval_seen rows; on `eval_wide`, wide_seen's.
      includes: (row) => !isHeldOutMix(row) && !isHeldOutFamily(row),
    },
    {
      name: 'held-out mix',
      measures:
        "training families, a team no training mix has (its author links partial re-runs): reading partial evidence; a memoriser that skips the author's CI refs is not caught",
      heldOut: true,
      catchesMemoriser: false,
      includes: isHeldOutMix,
    },
    {
      name: 'held-out families',
      measures: 'stories and evidence layouts no training row has: generalisation beyond remembered reads',
      heldOut: true,
      catchesMemoriser: true,
      includes: isHeldOutFamily,
    },
  ],
  safety: { unsafe: 'unsafe_ship', safe: 'safe_ship', invalid: 'invalid_actions', unsafePenalty: rewards.unsafe_ship },
  perturbed: perturbedReaders,
  memoriser: {
    fitSplit: 'train',
    fitRows: 900,
    keys: (row) => [`${row.family}/${row.difficulty}`, String(row.difficulty)],
    plans: memoriserPlans,
    minDrop: 0.3,
  },
}
