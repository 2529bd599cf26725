/** @module envs/releaseops/v1: `build_scenario(family, seed, difficulty, archetype_mix)`, draw for draw. */
import { PythonRandom } from '../../../core/python/python-random.js'
import { cleanReleaseFacts, ruleIds } from '../shared/safety-rules.js'
import { familyBuilders } from './families.js'
import { type FamilyV1, makeProposal, type ProposalV1, type ScenarioV1, type WorkerStat } from './scenario.js'
import { distractorClaims, distractorHiddenDetails, distractorTicketText } from './texts.js'

export interface BuildScenarioOptions {
  family: FamilyV1
  seed: number
  /** "low" gives one distractor and no draw; any other string gives randint(2, 4). */
  difficulty: string
  /** Accepted and ignored, as in the original. */
  archetypeMix: string
  /** A generator to re-seed and reuse (saves an allocation per episode). */
  rng?: PythonRandom
}

export function buildScenario(options: BuildScenarioOptions): ScenarioV1 {
  const rng = options.rng ?? new PythonRandom(options.seed)
  if (options.rng) rng.seed(options.seed)
  const hours = rng.choice([12, 24, 36])
  const budget = rng.randint(4, 7)
  const distractorCount = options.difficulty === 'low' ? 1 : rng.randint(2, 4)
  const proposals: ProposalV1[] = []
  const workerStats: WorkerStat[] = []
  const artifacts: Record<string, string> = {}
  for (let index = 0; index < distractorCount; index++) {
    const worker = `dev_${rng.randint(1, 99)}`
    const ticket = `ticket_${rng.randint(100, 999)}`
    const id = `p${rng.randint(100, 999)}`
    const claim = rng.choice(distractorClaims)
    const confidence = rng.choice(['medium', 'high'] as const)
    const correct = rng.randint(3, 10)
    const incorrect = rng.randint(0, 2)
    proposals.push(
      makeProposal({
        id,
        worker,
        claim,
        request: 'approve_triage',
        refs: [ticket],
        risk: ['ui'],
        confidence,
        hidden_details: distractorHiddenDetails,
      }),
    )
    artifacts[ticket] = distractorTicketText
    workerStats.push({ worker, hint: 'average', recent: { correct, incorrect } })
  }
  const facts = cleanReleaseFacts()
  familyBuilders[options.family]({ rng, proposals, workerStats, artifacts, facts })
  rng.shuffle(proposals)
  return {
    phase: 'triage',
    phase_index: 1,
    hours_to_deadline: hours,
    review_budget_remaining: budget,
    evidence_actions_remaining: 2,
    release: { service: 'checkout', stage: 'candidate' },
    rules: [...ruleIds],
    release_facts: facts,
    proposals,
    worker_stats: workerStats,
    artifacts_db: artifacts,
    terminal_reason: null,
    seed: options.seed,
    found_violations: [],
    family: options.family,
    difficulty: options.difficulty,
    archetype_mix: options.archetypeMix,
  }
}
