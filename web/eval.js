/**
 * Eval: summary tables (overall, per split, per family: rates with their Wilson 95% intervals) and
 * per-family charts for any eval summary — a file under the outputs root, a local file, or the result
 * of an eval job started here (POST /api/eval, followed until it ends).
 */
import { api, clear, describeError, el, formatNumber, notice, renderHeader, table } from './common.js'

const byId = (id) => document.getElementById(id)
const palette = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed', '#0891b2', '#be185d', '#4b5563']
const charts = []
let polling
/** The job started from this page, whose end replaces its "started" line. */
let following = null

function rateCell(block, key) {
  const value = block[key]
  const interval = block.ci95?.[key]
  if (typeof value !== 'number') return '–'
  return interval ? `${formatNumber(value)} [${formatNumber(interval[0])}, ${formatNumber(interval[1])}]` : formatNumber(value)
}

function metricKeys(summary) {
  const first = Object.values(summary)[0]?.overall ?? {}
  return Object.keys(first).filter((key) => typeof first[key] === 'number' && key !== 'count')
}

/** A metric name that may wrap after its underscores (so ten metrics fit 1280 px), same text. */
function breakable(key) {
  return key.split('_').flatMap((part, index) => (index === 0 ? [part] : ['_', el('wbr'), part]))
}

function blockTable(rows, keys, label, testId) {
  return table(
    [
      [label, (row) => row.name],
      ['n', (row) => formatNumber(row.block.count)],
      ...keys.map((key) => [breakable(key), (row) => rateCell(row.block, key)]),
    ],
    rows,
    { 'data-testid': testId },
  )
}

function chart(canvas, config) {
  const instance = new globalThis.Chart(canvas, config)
  charts.push(instance)
  return instance
}

function familyChart(summary, key) {
  const policies = Object.keys(summary)
  const families = [...new Set(policies.flatMap((policy) => Object.keys(summary[policy].by_family ?? {})))]
  const canvas = el('canvas', { 'data-testid': `chart-${key}` })
  const box = el('div', { class: 'chart' }, canvas)
  chart(canvas, {
    type: 'bar',
    data: {
      labels: families,
      datasets: policies.map((policy, index) => ({
        label: policy,
        backgroundColor: palette[index % palette.length],
        data: families.map((family) => summary[policy].by_family?.[family]?.[key] ?? null),
      })),
    },
    options: {
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: { title: { display: true, text: `${key} by family` } },
      scales: { x: { ticks: { autoSkip: false, maxRotation: 60, minRotation: 30 } } },
    },
  })
  return box
}

export function showSummary(summary, source) {
  for (const instance of charts.splice(0)) instance.destroy()
  const keys = metricKeys(summary)
  const chartKeys = ['avg_reward', ...keys.filter((key) => key !== 'avg_reward' && !key.startsWith('avg_')).slice(0, 1)]
  clear(
    byId('summary'),
    el('p', {}, `Source: ${source}`),
    el('h2', {}, 'Overall'),
    blockTable(
      Object.entries(summary).map(([name, policy]) => ({ name, block: policy.overall })),
      keys,
      'policy',
      'overall-table',
    ),
    Object.keys(Object.values(summary)[0]?.by_family ?? {}).length
      ? [
          el('h2', {}, 'Per family'),
          el(
            'div',
            { class: 'charts', 'data-testid': 'charts' },
            chartKeys.map((key) => familyChart(summary, key)),
          ),
        ]
      : null,
    Object.entries(summary).map(([policy, block]) => [
      el('h3', {}, `${policy} by split`),
      blockTable(
        Object.entries(block.by_split ?? {}).map(([name, item]) => ({ name, block: item })),
        keys,
        'split',
        `split-${policy}`,
      ),
      el('h3', {}, `${policy} by family`),
      blockTable(
        Object.entries(block.by_family ?? {}).map(([name, item]) => ({ name, block: item })),
        keys,
        'family',
        `family-${policy}`,
      ),
    ]),
  )
}

async function loadFiles() {
  const listing = await api('/outputs/ls?depth=8')
  const files = listing.entries.filter((entry) => entry.type === 'file' && /summary.*\.json$|eval.*\.json$/.test(entry.path))
  clear(
    byId('file'),
    files.length
      ? files.map((entry) => el('option', { value: entry.path }, entry.path))
      : el('option', { value: '' }, '(no summaries yet)'),
  )
}

async function loadFromOutputs() {
  const path = byId('file').value
  if (path) showSummary(await api(`/outputs/file?path=${encodeURIComponent(path)}`), path)
}

async function loadEnvOptions() {
  const index = await api('/')
  clear(
    byId('env'),
    index.envs.map((env) => el('option', { value: env.id }, env.id)),
  )
  byId('env').value = index.default_env
  await loadEnvDetails(index.default_env)
}

async function loadEnvDetails(envId) {
  const [rows, policies] = await Promise.all([api(`/api/envs/${envId}/rows?limit=1`), api(`/api/envs/${envId}/policies`)])
  clear(
    byId('split'),
    rows.splits.map((split) => el('option', { value: split }, split)),
  )
  if (rows.splits.includes('eval')) byId('split').value = 'eval'
  clear(
    byId('policies'),
    el('legend', {}, 'Policies'),
    // Privileged policies (the oracle reads hidden state) are the ceiling the others are read against.
    policies.policies.map((policy) =>
      el(
        'label',
        { title: policy.description },
        el('input', { type: 'checkbox', name: 'policy', value: policy.name, checked: true }),
        ` ${policy.name}${policy.privileged ? ' (ceiling)' : ''}`,
      ),
    ),
  )
}

function showJob(status) {
  byId('job').textContent =
    status.state === 'idle'
      ? ''
      : `Job ${status.job_id}: ${status.state} (${status.done}/${status.total})${status.error ? ` · ${status.error.code}: ${status.error.message}` : ''}`
  // A degraded job's summary stands, its reason beside it; a failed, cancelled or interrupted one has none.
  if ((status.state === 'succeeded' || status.state === 'degraded') && status.summary)
    showSummary(status.summary, status.summary_path)
}

async function follow() {
  clearTimeout(polling)
  const status = await api('/api/eval')
  showJob(status)
  if (status.state === 'running') polling = setTimeout(() => follow().catch(() => undefined), 500)
  else {
    if (following === status.job_id) {
      // The "started" line of the job begun here gives way to how it ended.
      following = null
      notice(byId('message'), status.state === 'succeeded' ? 'ok' : 'error', jobEnd(status))
    }
    loadFiles().catch(() => undefined)
  }
}

/** One line for a job that ended: state, rows done, and why when it is not `succeeded`. */
function jobEnd(status) {
  const error = status.error ? `: ${status.error.code}: ${status.error.message}` : ''
  return `Eval job ${status.job_id} ${status.state} (${status.done}/${status.total})${error}.`
}

async function runJob(event) {
  event.preventDefault()
  const policies = [...byId('policies').querySelectorAll('input[name=policy]:checked')].map((input) => input.value)
  const rows = Number(byId('rows').value)
  const modelUrl = byId('model-url').value.trim()
  // A base URL turns the job into a model eval (the server runs its rows against that endpoint).
  const agents = modelUrl ? { model: { name: byId('model-name').value.trim() || 'model', base_url: modelUrl } } : { policies }
  try {
    const started = await api('/api/eval', {
      method: 'POST',
      body: { env_id: byId('env').value, split: byId('split').value, ...agents, ...(rows > 0 ? { max_rows: rows } : {}) },
    })
    showJob(started)
    following = started.job_id
    notice(byId('message'), 'info', `Eval job ${started.job_id} started.`)
    await follow()
  } catch (error) {
    notice(byId('message'), 'error', describeError(error))
  }
}

renderHeader('eval.html')
byId('load').addEventListener('click', () =>
  loadFromOutputs().catch((error) => notice(byId('message'), 'error', describeError(error))),
)
byId('upload').addEventListener('change', async (event) => {
  const file = event.target.files?.[0]
  if (file) showSummary(JSON.parse(await file.text()), file.name)
})
byId('env').addEventListener('change', (event) =>
  loadEnvDetails(event.target.value).catch((error) => notice(byId('message'), 'error', describeError(error))),
)
byId('run').addEventListener('submit', runJob)
byId('cancel').addEventListener('click', () =>
  api('/api/eval/cancel', { method: 'POST' })
    .then(showJob)
    .catch((error) => notice(byId('message'), 'error', describeError(error))),
)
const showError = (error) => notice(byId('message'), 'error', describeError(error))
// The outputs list and the job status need the token when the server has one: read them again once it
// is entered (the env and policy lists are public and keep what the person already picked).
byId('token').addEventListener('change', () => {
  notice(byId('message'), 'info', '')
  Promise.all([loadFiles(), follow()]).catch(showError)
})
Promise.all([loadFiles(), loadEnvOptions(), follow()]).catch(showError)
