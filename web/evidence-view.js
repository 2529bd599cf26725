/**
 * What an episode has turned up so far, and what its score is made of. Play and Replay show every
 * call's result, newest first (an inspection does not vanish when the next call answers), and a line
 * that explains the episode's total: the step rewards so far plus, while the episode is live, the
 * charge an unfinished episode scores (v3: −0.6, a missed deadline), read from the env's metadata.
 */
import { clear, el, formatNumber } from './common.js'
import { resultView } from './grading-view.js'
import { shownResult } from './observation-view.js'

/**
 * One entry per step: `{step, call, reply}` (`call`: `{name, arguments}`). `prompt`: the grading prompt,
 * whose results are shown as tables. Newest first.
 */
export function renderEvidence(node, entries, prompt = null) {
  const shown = entries.filter((entry) => entry.reply.observation?.result !== undefined || entry.reply.observation?.error)
  clear(
    node,
    shown.length === 0
      ? el('p', { class: 'help' }, 'No evidence yet: the result of every call appears here, newest first.')
      : el(
          'ol',
          { class: 'evidence', reversed: true, 'data-testid': 'evidence' },
          [...shown].reverse().map((entry) => evidenceEntry(entry, prompt)),
        ),
  )
}

function evidenceEntry(entry, prompt) {
  const observation = entry.reply.observation ?? {}
  const error = observation.error
  const result = observation.result
  const refused = result && typeof result === 'object' && result.accepted === false
  const body = error
    ? el('p', { class: 'check bad' }, `${error.code}: ${error.message}`)
    : prompt && result && typeof result === 'object'
      ? resultView(result)
      : el('pre', { class: 'wrap' }, JSON.stringify(shownResult(result), null, 2))
  return el(
    'li',
    { value: entry.step, class: error || refused ? 'bad' : undefined, 'data-testid': `evidence-${entry.step}` },
    el(
      'div',
      { class: 'evidence-head' },
      el('code', {}, `${entry.call.name}(${JSON.stringify(entry.call.arguments ?? {})})`),
      ` · reward ${formatNumber(entry.reply.reward)}`,
    ),
    body,
  )
}

/**
 * Why the total is what it is. `stepRewards`: the rewards of the steps so far, in order (this one
 * last); `unfinished`: the env's `unfinished_episode_reward` (metadata), or undefined.
 */
export function rewardExplanation({ reply, stepRewards, unfinished }) {
  const total = reply.cumulative_reward
  if (typeof total !== 'number') return ''
  const sum = stepRewards.reduce((left, right) => left + right, 0)
  const charge = total - sum
  const last = stepRewards.at(-1)
  const before = stepRewards.length - 1
  const steps =
    stepRewards.length === 0
      ? ''
      : before === 0
        ? `this step ${formatNumber(last)}`
        : `this step ${formatNumber(last)} + the ${before} before it ${formatNumber(sum - last)}`
  const pending = typeof unfinished === 'number' && !reply.done && Math.abs(charge - unfinished) < 1e-9
  if (stepRewards.length === 0) {
    if (Math.abs(charge) < 1e-9) return `The episode starts at ${formatNumber(total)}; each step adds its reward.`
    if (pending)
      return `The episode starts at ${formatNumber(total)}: unfinished, it scores as a missed deadline (the env's unfinished_episode_reward). Each step adds its reward; a decision that ends the episode replaces the ${formatNumber(unfinished)}.`
    return `The episode starts at ${formatNumber(total)}.`
  }
  if (Math.abs(charge) < 1e-9)
    return `${reply.done ? 'Final score' : 'Total'} ${formatNumber(total)} = ${steps} (the sum of the step rewards).`
  if (pending)
    return `Total ${formatNumber(total)} = ${steps} + ${formatNumber(unfinished)} while unfinished (scored as a missed deadline until a decision ends the episode).`
  return `Total ${formatNumber(total)} = ${steps} + ${formatNumber(charge)} the env added beyond the step rewards.`
}
