/**
 * The Arena models the rollout gate's thresholds were set on (decision 0064): the ladder, the exploit
 * audit's evidence-free strategies and a sampled reference (the strongest reader, which on a chosen share
 * of episodes stops before its ship decision on every other sample: a model inside the band, with mixed
 * prompts and no unsafe habit). Each is played by a scripted model behind the OpenAI-compatible server and
 * gated by `gateRollout`, the use case behind `releaseops gate rollout --env releaseops-v3`.
 */
import { createHash } from 'node:crypto'
import { startMockOpenAiServer } from '../src/agent/scripted/mock-openai-server.js'
import { ScriptedPolicyModel } from '../src/agent/scripted/scripted-policy-model.js'
import type { Policy } from '../src/core/policy/policy.js'
import { PolicyRegistry } from '../src/core/registry/policy-registry.js'
import type { AuditStrategy } from '../src/core/testing/exploit-audit.js'
import { envRegistry, policyRegistry } from '../src/envs/index.js'
import { isShip } from '../src/envs/releaseops/arena/policies/calls.js'
import { releaseOpsV3Audit } from '../src/envs/releaseops/v3/audit/releaseops-audit.js'
import type { ReleaseOpsV3Observation } from '../src/envs/releaseops/v3/releaseops-env.js'
import type { GateReasonCode } from '../src/eval/gate/gate-reasons.js'
import type { GateReport } from '../src/eval/gate/gate-report.js'
import { gateRollout } from '../src/eval/gate/gate-rollout.js'

type ArenaPolicy = Policy<ReleaseOpsV3Observation>

export interface ArenaGateModel {
  name: string
  kind: 'degenerate' | 'ladder' | 'reference'
  /** Reasons the rule must give on every eval split (a subset when a split may add one; empty: passes). */
  reasons: readonly GateReasonCode[]
  create: () => ArenaPolicy
}

/**
 * The reader, stopping before its ship decision (the episode unfinished, −0.6) except on every other sample
 * of the episodes whose first observation hashes into `share`: a sampled model inside the band.
 */
export function sampledStopper(options: {
  inner: () => ArenaPolicy
  share: number
  decisions: Map<string, number>
}): ArenaPolicy {
  return {
    name: 'sampled-stopper',
    start(start) {
      const key = createHash('sha256').update(JSON.stringify(start.observation)).digest()
      const chosen = key.readUInt32BE(0) / 2 ** 32 < options.share
      const keyText = key.toString('hex')
      const episode = options.inner().start(start)
      return {
        act(observation) {
          const call = episode.act(observation)
          const proposal = observation.view.proposals.find(
            (item) => call?.name === 'approve_proposal' && item.id === (call.arguments as { proposal_id?: string }).proposal_id,
          )
          if (!call || !proposal || !isShip(proposal)) return call
          const count = options.decisions.get(keyText) ?? 0
          options.decisions.set(keyText, count + 1)
          return chosen && count % 2 === 0 ? call : null
        },
      }
    },
  }
}

const auditStrategy = (name: string): (() => ArenaPolicy) => {
  const strategy = (releaseOpsV3Audit.exploits?.() ?? []).find((item) => item.name === name) as
    | AuditStrategy<ReleaseOpsV3Observation>
    | undefined
  if (!strategy) throw new Error(`no audit strategy ${name}`)
  const policy = strategy.policy()
  return () => policy
}

const ladder = (name: string) => () => policyRegistry.create('releaseops-v3', name) as ArenaPolicy

/** An evidence-free strategy of the exploit audit: it must fail for using no evidence and shipping unsafely. */
const blind = (name: string, strategy: string): ArenaGateModel => ({
  name,
  kind: 'degenerate',
  reasons: ['no_evidence_use', 'unsafe_ships'],
  create: auditStrategy(strategy),
})

export function arenaGateModels(): ArenaGateModel[] {
  const decisions = new Map<string, number>()
  return [
    {
      name: 'approve everything (naive)',
      kind: 'degenerate',
      reasons: ['no_evidence_use', 'unsafe_ships'],
      create: ladder('naive'),
    },
    blind('hold once, then approve', 'hold-then-approve'),
    blind('hold twice, then approve', 'hold-twice-then-approve'),
    blind("v2's exploit (block each claim)", 'v2-exploit-each-claim'),
    blind('approve the first proposal only', 'approve-first-proposal-only'),
    {
      name: 'inspect, then approve anyway',
      kind: 'degenerate',
      reasons: ['unsafe_ships'],
      create: auditStrategy('inspect-then-approve-anyway'),
    },
    blind('slice-prior blind learner', 'slice-prior-blind'),
    {
      name: 'never call a tool',
      kind: 'degenerate',
      reasons: ['rate_out_of_bounds', 'no_learning_signal', 'no_evidence_use'],
      create: auditStrategy('never-call-a-tool'),
    },
    { name: 'rule', kind: 'ladder', reasons: ['no_learning_signal', 'unsafe_ships'], create: ladder('rule') },
    {
      name: 'phase-aware-rule',
      kind: 'ladder',
      reasons: ['rate_out_of_bounds', 'no_learning_signal', 'unsafe_ships'],
      create: ladder('phase-aware-rule'),
    },
    {
      name: 'evidence-heuristic',
      kind: 'ladder',
      reasons: ['rate_out_of_bounds', 'no_learning_signal'],
      create: ladder('evidence-heuristic'),
    },
    {
      name: 'dissent-first-reader',
      kind: 'ladder',
      reasons: ['rate_out_of_bounds', 'no_learning_signal'],
      create: ladder('dissent-first-reader'),
    },
    {
      name: 'oracle (privileged)',
      kind: 'ladder',
      reasons: ['rate_out_of_bounds', 'no_learning_signal'],
      create: ladder('oracle'),
    },
    {
      name: 'reference: the reader, sampled, ships on half the samples of 30% of episodes',
      kind: 'reference',
      reasons: [],
      create: () => sampledStopper({ inner: ladder('dissent-first-reader'), share: 0.3, decisions }),
    },
  ]
}

/** `gate rollout --env releaseops-v3 --split <split> --samples 2` on a scripted model playing `model`. */
export async function runArenaGate(options: {
  split: string
  model: ArenaGateModel
  limit?: number
  concurrency?: number
}): Promise<GateReport> {
  const dataset = envRegistry.get('releaseops-v3').dataset
  if (!dataset) throw new Error('releaseops-v3 has no dataset')
  const rows = dataset.rows(options.split)
  const policies = new PolicyRegistry()
  policies.register('releaseops-v3', { name: 'model', description: options.model.name, create: options.model.create as never })
  const scripted = new ScriptedPolicyModel({
    envId: 'releaseops-v3',
    policy: 'model',
    rows: options.limit === undefined ? rows : rows.slice(0, options.limit),
    envs: envRegistry,
    policies,
  })
  const server = await startMockOpenAiServer({ model: scripted, format: 'qwen3', modelName: 'scripted-supervisor' })
  try {
    const { result } = await gateRollout({
      envId: 'releaseops-v3',
      envs: envRegistry,
      split: options.split,
      model: { baseUrl: server.url, model: 'scripted-supervisor', mode: 'qwen3', enableThinking: false, retries: 0 },
      samples: 2,
      concurrency: options.concurrency ?? 4,
      keepTrajectories: false,
      ...(options.limit === undefined ? {} : { limit: options.limit, minDenominator: options.limit * 2 }),
    })
    return result.report
  } finally {
    await server.close()
  }
}
