/**
 * Training: start a run (a preset plus overrides; needs the operator token), stop it, and watch it live
 * through `/train/live` (Server-Sent Events): status (which step runs), reward/loss/tool-call curves
 * that grow with each logged step, and the log. The banner follows the run to its end; a failed run
 * shows its step, its cause (the exception's last line) and a link to its log. The summary, the
 * server-rendered plot and the runs table refresh as the run moves.
 */
import { api, clear, describeError, el, formatNumber, notice, objectUrl, renderHeader, subscribe, table } from './common.js'
import { createRunsView, modelLabel } from './train-runs.js'

const byId = (id) => document.getElementById(id)
const state = { runId: null, rows: [], charts: {}, log: [], lastState: null, runs: null, followed: undefined }

const presetHelp = {
  smoke:
    'smoke: the tiny local Qwen3 that `releaseops train smoke` trains, with no network: 4 GRPO steps of 16 completions, then a learning probe. The first run builds and warms up the model under the outputs root (about 5 of its 7 minutes on a quiet 2-core machine); later runs reuse it (about 2 minutes).',
  pilot:
    'pilot: Qwen/Qwen3-0.6B (or the model you name), 100 steps. A Hub model must be in the local Hugging Face cache or reachable online.',
}

function lineChart(canvas, title, series) {
  return new globalThis.Chart(canvas, {
    type: 'line',
    data: {
      labels: [],
      datasets: series.map(([label, , color, dashed]) => ({
        label,
        data: [],
        borderColor: color,
        backgroundColor: color,
        borderDash: dashed ? [6, 4] : [],
        spanGaps: true,
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { title: { display: true, text: title } },
      scales: { x: { title: { display: true, text: 'step' } } },
    },
  })
}

const chartSpecs = {
  reward: [
    'reward (env, mean over rollouts)',
    [
      ['reward', (row) => row.reward, '#2563eb'],
      ['reward_std', (row) => row.reward_std, '#93c5fd', true],
    ],
  ],
  loss: [
    'loss and grad norm',
    [
      ['loss', (row) => row.loss, '#dc2626'],
      ['grad_norm', (row) => row.grad_norm, '#f59e0b', true],
    ],
  ],
  tools: [
    'tool calls per rollout / failure share',
    [
      ['tools/call_frequency', (row) => row['tools/call_frequency'], '#059669'],
      ['tools/failure_frequency', (row) => row['tools/failure_frequency'], '#7c3aed'],
    ],
  ],
}

function createCharts() {
  for (const [key, [title, series]] of Object.entries(chartSpecs))
    state.charts[key] = lineChart(byId(`${key}-chart`), title, series)
}

function redraw() {
  const rows = state.rows.filter((row) => typeof row.step === 'number' && !('train_runtime' in row))
  for (const [key, [, series]] of Object.entries(chartSpecs)) {
    const chart = state.charts[key]
    chart.data.labels = rows.map((row) => row.step)
    series.forEach(([, read], index) => {
      chart.data.datasets[index].data = rows.map((row) => (typeof read(row) === 'number' ? read(row) : null))
    })
    chart.update('none')
  }
  document.body.dataset.points = String(rows.length)
}

/** `warm-up (2/4)`: the step running (or last run) and where it stands among the run's steps. */
function stepLabel(status) {
  if (!status.step || !status.steps) return '–'
  return `${status.step} (${status.steps.indexOf(status.step) + 1}/${status.steps.length})`
}

/** The banner of the run on screen follows its state (started, the step it is at, how it ended). */
function runBanner(status) {
  if (!status.run_id || status.state === 'idle') return
  const run = `Run ${status.run_id}`
  const elapsed = status.elapsed_seconds === null ? '' : ` in ${status.elapsed_seconds} s`
  if (status.state === 'running' || status.state === 'starting')
    notice(byId('message'), 'info', `${run} running: step ${stepLabel(status)}.`)
  else if (status.state === 'stopping') notice(byId('message'), 'info', `${run} stopping…`)
  else if (status.state === 'succeeded') notice(byId('message'), 'ok', `${run} succeeded${elapsed}.`)
  else if (status.state === 'stopped') notice(byId('message'), 'info', `${run} stopped${elapsed}.`)
  else if (status.state === 'failed') {
    const cause = status.error?.cause ? ` Cause: ${status.error.cause}` : ''
    notice(byId('message'), 'error', `${run} failed${elapsed}: ${status.error?.message ?? 'see the log'}${cause}`)
  }
}

/** What a failed run shows in the status box: the step's error, its cause, the log (link and tail). */
function failureBox(status) {
  if (status.state !== 'failed') return null
  const link = el(
    'a',
    { 'data-testid': 'failure-log', download: `${status.run_id}-train.log`, href: '#' },
    status.log_path ?? 'log',
  )
  if (status.log_path) {
    objectUrl(`/outputs/file?path=${encodeURIComponent(status.log_path)}`)
      .then((url) => link.setAttribute('href', url))
      .catch(() => link.removeAttribute('href'))
  }
  const tail = el('pre', { class: 'log' }, (status.last_log_lines ?? []).join('\n'))
  const box = el(
    'div',
    { class: 'failure', 'data-testid': 'failure' },
    el('p', {}, el('strong', {}, status.error?.message ?? 'The run failed.')),
    status.error?.cause ? el('p', { 'data-testid': 'failure-cause' }, 'Cause: ', el('code', {}, status.error.cause)) : null,
    el('p', {}, 'Log: ', link),
    el('details', {}, el('summary', {}, 'last lines of the log'), tail),
  )
  // The end of the log is where the cause is: show it, not the top of the traceback.
  requestAnimationFrame(() => {
    tail.scrollTop = tail.scrollHeight
  })
  return box
}

function showStatus(status) {
  const fields = [
    ['state', status.state],
    ['step', stepLabel(status)],
    ['run', status.run_id ?? '–'],
    ['preset', status.preset ?? '–'],
    ['model', modelLabel(status.model)],
    ['elapsed', status.elapsed_seconds === null ? '–' : `${status.elapsed_seconds} s`],
    ['exit', status.signal ? `signal ${status.signal}` : status.exit_code === null ? '–' : `code ${status.exit_code}`],
    ['pid', status.pid ?? '–'],
    ['hub push', status.hub_push ? `${status.hub_push.state} ${status.hub_push.repo}` : '–'],
  ]
  clear(
    byId('status'),
    fields.map(([label, value]) =>
      el(
        'div',
        { 'data-testid': `status-${label.replace(' ', '-')}` },
        el('small', {}, label),
        // One word (a run id, a state) stays on one line.
        el(
          'div',
          { class: /\s/.test(String(value)) ? undefined : 'one-word', title: label === 'model' ? status.model : undefined },
          String(value),
        ),
      ),
    ),
  )
  // Built once per ended run (its log link is fetched with the token).
  const ending = `${status.run_id}:${status.state}:${status.ended_at}`
  if (ending !== state.ending) {
    state.ending = ending
    clear(byId('failure-box'), failureBox(status))
  }
  byId('stop').disabled = !status.running
  // A run already going when the page opened is followed too.
  if (state.followed === undefined && status.running) state.followed = status.run_id
  if (status.run_id === state.followed) runBanner(status)
  if (status.run_id !== state.runId) {
    state.runId = status.run_id
    state.rows = []
    state.log = []
    redraw()
  }
  if (status.state !== state.lastState) {
    state.lastState = status.state
    refreshSummary()
    state.runs?.refresh().catch(() => undefined)
  }
}

/** A summary value; an object (the best checkpoint) as `key value` pairs that wrap between them. */
function summaryValue(value) {
  if (value === null || typeof value !== 'object') return formatNumber(value)
  return Object.entries(value)
    .map(([key, item]) => `${key} ${item !== null && typeof item === 'object' ? JSON.stringify(item) : formatNumber(item)}`)
    .join(' · ')
}

async function refreshSummary() {
  try {
    const { summary } = await api('/train/summary')
    clear(
      byId('summary'),
      summary
        ? table(
            [
              ['measure', ([key]) => key],
              ['value', ([, value]) => summaryValue(value)],
            ],
            Object.entries(summary),
            { 'data-testid': 'summary-table' },
          )
        : el('p', {}, 'No metrics yet.'),
    )
    const previous = byId('plot').src
    byId('plot').src = await objectUrl('/train/plot.png')
    if (previous.startsWith('blob:')) URL.revokeObjectURL(previous)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

function onEvent(event, data) {
  if (event === 'status') showStatus(data)
  else if (event === 'metrics') {
    if (data.run_id !== state.runId) return
    state.rows = data.from === 0 ? data.rows : [...state.rows.slice(0, data.from), ...data.rows]
    redraw()
    refreshSummary()
  } else if (event === 'log') {
    state.log = [...state.log, ...data.lines].slice(-400)
    byId('log').textContent = state.log.join('\n')
    byId('log').scrollTop = byId('log').scrollHeight
  }
}

function startRequest(form) {
  const body = {}
  for (const [name, value] of new FormData(form).entries()) {
    if (value === '') continue
    const input = form.elements.namedItem(name)
    body[name] = input.type === 'number' ? Number(value) : name === 'probe' ? value === 'true' : value
  }
  return body
}

/** The tiny model's fields count only for the smoke preset without a named model. */
function syncPresetFields() {
  const form = byId('start-form')
  const preset = form.elements.namedItem('preset').value
  const named = ['model_name', 'model_path'].some((name) => form.elements.namedItem(name).value.trim() !== '')
  form.querySelector('fieldset.smoke-only').disabled = preset !== 'smoke' || named
  byId('preset-help').textContent =
    named && preset === 'smoke' ? 'smoke: 4 GRPO steps of the model you named.' : presetHelp[preset]
}

async function start(event) {
  event.preventDefault()
  try {
    const status = await api('/train/start', { method: 'POST', body: startRequest(event.target) })
    state.followed = status.run_id
    notice(byId('message'), 'info', `Run ${status.run_id} started: step ${stepLabel(status)}.`)
    showStatus(status)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

async function stop() {
  try {
    // The banner follows the run: "stopped in N s" comes with its status.
    showStatus(await api('/train/stop', { method: 'POST' }))
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

let unsubscribe
function connect() {
  unsubscribe?.()
  unsubscribe = subscribe('/train/live', onEvent, (error) =>
    notice(byId('message'), 'error', `live feed: ${describeError(error)}`),
  )
}

renderHeader('train.html')
createCharts()
state.runs = createRunsView({ node: byId('runs'), canvas: byId('runs-chart') })
byId('start-form').addEventListener('submit', start)
byId('start-form').addEventListener('input', syncPresetFields)
syncPresetFields()
byId('stop').addEventListener('click', stop)
byId('token').addEventListener('change', () => {
  notice(byId('message'), 'info', '')
  connect()
  state.runs.refresh().catch(() => undefined)
})
connect()
state.runs.refresh().catch(() => undefined)
