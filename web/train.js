/**
 * Training: start a run (a preset plus overrides; needs the operator token), stop it, and watch it live
 * through `/train/live` (Server-Sent Events): status, reward/loss/tool-call curves that grow with each
 * logged step, and the log. The summary and the server-rendered plot refresh as the run moves.
 */
import { api, clear, describeError, el, formatNumber, notice, objectUrl, renderHeader, subscribe, table } from './common.js'

const byId = (id) => document.getElementById(id)
const state = { runId: null, rows: [], charts: {}, log: [], lastState: null }

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

function showStatus(status) {
  const fields = [
    ['state', status.state],
    ['run', status.run_id ?? '–'],
    ['preset', status.preset ?? '–'],
    ['model', status.model ?? '–'],
    ['elapsed', status.elapsed_seconds === null ? '–' : `${status.elapsed_seconds} s`],
    ['exit', status.signal ? `signal ${status.signal}` : status.exit_code === null ? '–' : `code ${status.exit_code}`],
    ['pid', status.pid ?? '–'],
    ['hub push', status.hub_push ? `${status.hub_push.state} ${status.hub_push.repo}` : '–'],
  ]
  clear(
    byId('status'),
    fields.map(([label, value]) =>
      el('div', { 'data-testid': `status-${label.replace(' ', '-')}` }, el('small', {}, label), el('div', {}, String(value))),
    ),
    status.last_log_lines && status.state === 'failed' ? el('pre', { class: 'log' }, status.last_log_lines.join('\n')) : null,
  )
  byId('stop').disabled = !status.running
  if (status.run_id !== state.runId) {
    state.runId = status.run_id
    state.rows = []
    state.log = []
    redraw()
  }
  if (status.state !== state.lastState) {
    state.lastState = status.state
    refreshSummary()
  }
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
              [
                'value',
                ([, value]) => (value !== null && typeof value === 'object' ? JSON.stringify(value) : formatNumber(value)),
              ],
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
    body[name] = input.type === 'number' ? Number(value) : value
  }
  return body
}

async function start(event) {
  event.preventDefault()
  try {
    const status = await api('/train/start', { method: 'POST', body: startRequest(event.target) })
    notice(byId('message'), 'ok', `Run ${status.run_id} started.`)
    showStatus(status)
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

async function stop() {
  try {
    showStatus(await api('/train/stop', { method: 'POST' }))
    notice(byId('message'), 'ok', 'Run stopped.')
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
byId('start-form').addEventListener('submit', start)
byId('stop').addEventListener('click', stop)
byId('token').addEventListener('change', connect)
connect()
