/**
 * Training runs side by side (`GET /train/runs`): a table of every run (state, steps, reward first →
 * last, the learning verdict when the run was probed, the cause when it failed) and one chart of the
 * reward curves of the runs ticked for comparison (the newest five with a curve, until a person picks).
 */
import { api, clear, el, formatNumber, table } from './common.js'

const palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563']

/** The last path segment of a model folder (a Hub id stays whole). */
export function modelLabel(model) {
  if (!model) return '–'
  return model.startsWith('/') ? (model.split('/').filter(Boolean).at(-1) ?? model) : model
}

function interval(gain) {
  return gain.ci95 ? `[${formatNumber(gain.ci95.low)}, ${formatNumber(gain.ci95.high)}]` : '[n/a]'
}

/** One line for a probed run: which gain counted, or why none did. */
export function verdictText(learning) {
  if (!learning) return 'not probed'
  const reward = learning.reward
  const shown = learning.metric === 'accepted_call_rate' ? learning.accepted_call_rate : reward
  const sign = shown.gain > 0 ? '+' : ''
  const what = `${learning.metric ?? 'reward'} ${sign}${formatNumber(shown.gain)} ${interval(shown)}`
  if (learning.passed) return `learned: ${what}`
  if (learning.calling_less) return `not learned (calls less): ${what}`
  return `not learned: ${what}`
}

function rewardChange(summary) {
  if (!summary || summary.reward_first === null) return '–'
  const delta = summary.reward_delta
  return `${formatNumber(summary.reward_first)} → ${formatNumber(summary.reward_last)} (${delta > 0 ? '+' : ''}${formatNumber(delta)})`
}

export function createRunsView(options) {
  const { node, canvas } = options
  const chosen = new Set()
  let picked = false
  let runs = []
  const chart = new globalThis.Chart(canvas, {
    type: 'line',
    data: { datasets: [] },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      parsing: false,
      plugins: { title: { display: true, text: 'reward per step, runs compared' } },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'step' }, ticks: { precision: 0 } },
        y: { title: { display: true, text: 'reward' } },
      },
    },
  })

  function redrawChart() {
    chart.data.datasets = runs
      .filter((run) => chosen.has(run.run_id))
      .map((run, index) => ({
        label: `${run.run_id} (${run.preset ?? '?'})`,
        data: run.reward_curve.map(([x, y]) => ({ x, y })),
        borderColor: palette[index % palette.length],
        backgroundColor: palette[index % palette.length],
      }))
    chart.update('none')
    node.dataset.compared = String(chart.data.datasets.length)
  }

  function toggle(runId, checked) {
    picked = true
    if (checked) chosen.add(runId)
    else chosen.delete(runId)
    redrawChart()
  }

  function render() {
    if (!picked) {
      chosen.clear()
      for (const run of runs.filter((item) => item.reward_curve.length > 0).slice(0, 5)) chosen.add(run.run_id)
    }
    clear(
      node,
      runs.length === 0
        ? el('p', {}, 'No runs yet.')
        : table(
            [
              [
                'compare',
                (run) =>
                  el('input', {
                    type: 'checkbox',
                    'aria-label': `compare ${run.run_id}`,
                    'data-testid': `compare-${run.run_id}`,
                    checked: chosen.has(run.run_id),
                    onchange: (event) => toggle(run.run_id, event.target.checked),
                  }),
              ],
              ['run', (run) => run.run_id],
              ['preset', (run) => run.preset ?? '–'],
              ['model', (run) => el('span', { title: run.model ?? '' }, modelLabel(run.model))],
              ['state', (run) => el('span', { class: `state ${run.state ?? ''}` }, run.state ?? '–')],
              ['steps', (run) => (run.global_step === null ? '–' : `${run.global_step}/${run.max_steps ?? '?'}`)],
              ['reward first → last', (run) => rewardChange(run.summary)],
              ['reward max', (run) => formatNumber(run.summary?.reward_max ?? null)],
              ['tool calls / rollout', (run) => formatNumber(run.summary?.tool_call_frequency_last ?? null)],
              [
                'learning verdict',
                (run) => el('span', { class: `verdict ${run.learning?.passed ? 'good' : ''}` }, verdictText(run.learning)),
              ],
              ['cause', (run) => run.error?.cause ?? run.error?.message ?? ''],
            ],
            runs,
            { 'data-testid': 'runs-table', class: 'runs' },
          ),
    )
    redrawChart()
  }

  return {
    async refresh() {
      runs = (await api('/train/runs')).runs
      render()
    },
  }
}
