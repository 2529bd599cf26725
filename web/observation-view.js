/**
 * Renders an env observation for a person: the release state (phase, deadline, budget), the release
 * checks, the proposals and worker track records, and the evidence the last tool returned. Unknown
 * shapes fall back to formatted JSON, so any env can be played.
 */
import { clear, el, formatNumber, table } from './common.js'
import { gradingSections } from './grading-view.js'

/** The view part of an observation (`releaseops-v2` nests it under `view`; v1 is flat). */
export function viewOf(observation) {
  if (observation && typeof observation.view === 'object' && observation.view !== null) return observation.view
  return observation ?? {}
}

function stateLine(view) {
  const facts = [
    ['phase', view.phase],
    ['deadline', view.hours_to_deadline === undefined ? undefined : `${view.hours_to_deadline} h`],
    ['review budget', view.review_budget_remaining],
    ['evidence actions', view.evidence_actions_remaining],
    ['candidate', view.release?.candidate],
  ].filter(([, value]) => value !== undefined)
  return el(
    'dl',
    { class: 'facts', 'data-testid': 'state' },
    facts.map(([label, value]) => [el('dt', {}, label), el('dd', {}, String(value))]),
  )
}

/**
 * Whether a check's value is good news. Most checks name a problem (`open_p1_bug`,
 * `payment_tests_disabled`: true is bad); the ones that name a success (`payment_tests_passing`,
 * `deploy_checks_passed`) are good when true.
 */
export function checkVerdict(name, value) {
  if (value !== true && value !== false) return 'unverified'
  const namesSuccess = /(_passing|_passed|_green|_ok)$/.test(name)
  return value === namesSuccess ? 'good' : 'bad'
}

function checksTable(view) {
  const checks = view.release_checks
  if (!checks || typeof checks !== 'object') return null
  return table(
    [
      ['check', ([name]) => name],
      ['value', ([name, value]) => el('span', { class: `check ${checkVerdict(name, value)}` }, String(value))],
    ],
    Object.entries(checks),
    { 'data-testid': 'checks' },
  )
}

function proposalsTable(view) {
  if (!Array.isArray(view.proposals)) return null
  return table(
    [
      ['id', (proposal) => proposal.id],
      ['worker', (proposal) => proposal.worker],
      ['request', (proposal) => proposal.request],
      ['claim', (proposal) => proposal.claim],
      ['refs', (proposal) => (proposal.refs ?? []).join(', ')],
      [
        'claims',
        (proposal) =>
          Object.entries(proposal.claims ?? {})
            .map(([rule, verdict]) => `${rule}: ${verdict}`)
            .join('; '),
      ],
      ['confidence', (proposal) => proposal.confidence],
      ['status', (proposal) => el('span', { class: `status ${proposal.status}` }, proposal.status)],
    ],
    view.proposals,
    { 'data-testid': 'proposals', class: 'proposals' },
  )
}

function workersTable(view) {
  if (!Array.isArray(view.worker_stats) || view.worker_stats.length === 0) return null
  return table(
    [
      ['worker', (stat) => stat.worker],
      ['correct', (stat) => stat.recent?.correct ?? stat.correct ?? '–'],
      ['incorrect', (stat) => stat.recent?.incorrect ?? stat.incorrect ?? '–'],
    ],
    view.worker_stats,
    { 'data-testid': 'workers' },
  )
}

/**
 * Renders the observation into `node`. `prompt`: the episode's grading prompt (`gradingPrompt` of its
 * reset observation), when the env is a grading env; later observations carry only results.
 */
export function renderObservation(node, observation, prompt = null) {
  if (prompt) {
    const error = observation?.error ?? null
    return clear(
      node,
      error ? el('div', { class: 'notice error', 'data-testid': 'observation-error' }, `${error.code}: ${error.message}`) : null,
      gradingSections(prompt, observation),
    )
  }
  const view = viewOf(observation)
  const known = view.phase !== undefined || Array.isArray(view.proposals)
  const result = observation?.result ?? null
  // A phase advance carries the whole next view, which is rendered below; keep the evidence short.
  const evidence =
    result && typeof result === 'object' && 'updated_observation' in result
      ? { ...result, updated_observation: '(the new phase, shown below)' }
      : result
  const error = observation?.error ?? null
  clear(
    node,
    error ? el('div', { class: 'notice error', 'data-testid': 'observation-error' }, `${error.code}: ${error.message}`) : null,
    evidence
      ? el(
          'section',
          { 'data-testid': 'evidence' },
          el('h3', {}, 'Evidence / result'),
          el('pre', { class: 'wrap' }, JSON.stringify(evidence, null, 2)),
        )
      : null,
    known ? stateLine(view) : null,
    known ? el('section', {}, el('h3', {}, 'Release checks'), checksTable(view)) : null,
    known ? el('section', {}, el('h3', {}, 'Proposals'), proposalsTable(view)) : null,
    known ? el('section', {}, el('h3', {}, 'Worker track records'), workersTable(view)) : null,
    known ? null : el('pre', { class: 'wrap', 'data-testid': 'observation-json' }, JSON.stringify(observation, null, 2)),
  )
}

/**
 * Ids a person may want to pass to a tool: unresolved proposals (a resolved one can only be refused with
 * `proposal_resolved`, so the Play form must not keep offering it first), their refs, workers.
 */
export function idSuggestions(observation) {
  const view = viewOf(observation)
  const ids = { proposal: new Set(), ref: new Set(), worker: new Set() }
  for (const proposal of view.proposals ?? []) {
    if (proposal.id && (proposal.status === undefined || proposal.status === 'unresolved')) ids.proposal.add(proposal.id)
    if (proposal.worker) ids.worker.add(proposal.worker)
    for (const ref of proposal.refs ?? []) ids.ref.add(ref)
  }
  return ids
}

/** A reward line: this step, the episode total, and the end when there is one. */
export function rewardLine(reply) {
  const parts = [`step reward ${formatNumber(reply.reward)}`, `total ${formatNumber(reply.cumulative_reward)}`]
  if (reply.done)
    parts.push(
      `episode over: ${reply.terminal_reason ?? reply.info?.truncated_reason ?? (reply.truncated ? 'truncated' : 'terminated')}`,
    )
  return parts.join(' · ')
}
