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
      // What a worker claims about each rule sits under the claim itself (one column fewer at 1280 px).
      [
        'claim',
        (proposal) => [
          proposal.claim,
          Object.entries(proposal.claims ?? {}).map(([rule, verdict]) =>
            el('div', { class: 'rule-claim' }, `${rule}: ${verdict}`),
          ),
        ],
      ],
      ['refs', (proposal) => (proposal.refs ?? []).join(', ')],
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
 * `evidence: false` leaves out the last call's result (a page that lists every result beside it).
 */
export function renderObservation(node, observation, prompt = null, { evidence = true } = {}) {
  const error = observation?.error ?? null
  const errorLine = error
    ? el('div', { class: 'notice error', 'data-testid': 'observation-error' }, `${error.code}: ${error.message}`)
    : null
  if (prompt) return clear(node, errorLine, gradingSections(prompt, observation, { result: evidence }))
  const view = viewOf(observation)
  const known = view.phase !== undefined || Array.isArray(view.proposals)
  const result = evidence ? shownResult(observation?.result ?? null) : null
  clear(
    node,
    errorLine,
    result
      ? el(
          'section',
          { 'data-testid': 'evidence' },
          el('h3', {}, 'Evidence / result'),
          el('pre', { class: 'wrap' }, JSON.stringify(result, null, 2)),
        )
      : null,
    known ? stateLine(view) : null,
    known ? el('section', {}, el('h3', {}, 'Release checks'), checksTable(view)) : null,
    known ? el('section', {}, el('h3', {}, 'Proposals'), proposalsTable(view)) : null,
    known ? el('section', {}, el('h3', {}, 'Worker track records'), workersTable(view)) : null,
    known ? null : el('pre', { class: 'wrap', 'data-testid': 'observation-json' }, JSON.stringify(observation, null, 2)),
  )
}

/** A call's result as shown: a phase advance carries the whole next view, shown elsewhere, so it is cut short. */
export function shownResult(result) {
  return result && typeof result === 'object' && 'updated_observation' in result
    ? { ...result, updated_observation: '(the new phase, shown below)' }
    : result
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
