/**
 * Eval: summary tables (overall, per split, per family: rates with their Wilson 95% intervals) and
 * per-family charts with 95% error bars (`eval-charts.js`) for any eval summary — a file under the
 * outputs root, a local file, or the result of an eval job started here (POST /api/eval, followed until
 * it ends). A family filter narrows the charts and the per-family tables; a slice filter the per-split.
 */
import { api, clear, describeError, el, formatNumber, notice, renderHeader, table } from './common.js'
import { chartKeys, familyChart, rewardIntervals } from './eval-charts.js'

const byId = (id) => document.getElementById(id)
const charts = []
/** The summary on screen, its source, the reward intervals from its episodes, the filters. */
const shown = { summary: null, source: '', intervals: null, family: '', slice: '' }
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

function filterSelect(label, values, current, onChange) {
  return el(
    'label',
    {},
    `${label} `,
    el(
      'select',
      { 'data-testid': `filter-${label}`, onchange: (event) => onChange(event.target.value) },
      el('option', { value: '' }, `all (${values.length})`),
      values.map((value) => el('option', { value, selected: value === current }, value)),
    ),
  )
}

function renderSummary() {
  const { summary, source } = shown
  for (const instance of charts.splice(0)) instance.destroy()
  const keys = metricKeys(summary)
  const allFamilies = [...new Set(Object.values(summary).flatMap((block) => Object.keys(block.by_family ?? {})))]
  const allSlices = [...new Set(Object.values(summary).flatMap((block) => Object.keys(block.by_split ?? {})))]
  const families = shown.family ? [shown.family] : allFamilies
  const pick = (entries, wanted) => (wanted ? entries.filter(([name]) => name === wanted) : entries)
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
    el(
      'p',
      { class: 'pager', 'data-testid': 'filters' },
      filterSelect('family', allFamilies, shown.family, (value) => {
        shown.family = value
        renderSummary()
      }),
      filterSelect('slice', allSlices, shown.slice, (value) => {
        shown.slice = value
        renderSummary()
      }),
    ),
    allFamilies.length
      ? [
          el('h2', {}, 'Per family'),
          el(
            'div',
            { class: 'charts family-charts', 'data-testid': 'charts' },
            chartKeys(summary).map((key) => familyChart({ summary, key, families, intervals: shown.intervals, charts })),
          ),
        ]
      : null,
    el(
      'div',
      { class: 'policy-tables' },
      Object.entries(summary).map(([policy, block]) =>
        el(
          'section',
          {},
          el('h3', {}, `${policy} by split`),
          blockTable(
            pick(Object.entries(block.by_split ?? {}), shown.slice).map(([name, item]) => ({ name, block: item })),
            keys,
            'split',
            `split-${policy}`,
          ),
          el('h3', {}, `${policy} by family`),
          blockTable(
            pick(Object.entries(block.by_family ?? {}), shown.family).map(([name, item]) => ({ name, block: item })),
            keys,
            'family',
            `family-${policy}`,
          ),
        ),
      ),
    ),
  )
}

/** The episodes file written beside a summary under the outputs root (an eval job's, `eval --episodes-out`'s). */
async function episodesBeside(source) {
  if (!/(^|\/)summary\.json$/.test(source)) return null
  const path = source.replace(/summary\.json$/, 'episodes.jsonl')
  const listing = await api(`/outputs/ls?path=${encodeURIComponent(path.replace(/\/?episodes\.jsonl$/, ''))}`)
  if (!listing.entries.some((entry) => entry.path === path)) return null
  const text = await (await fetch(`/outputs/file?path=${encodeURIComponent(path)}`, { headers: authHeaders() })).text()
  return text
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line))
}

function authHeaders() {
  const token = sessionStorage.getItem('releaseops.token')
  return token ? { authorization: `Bearer ${token}` } : {}
}

/** Which showSummary call is the latest: an older call's episodes arrive too late to draw. */
let showing = 0

export function showSummary(summary, source) {
  const ticket = ++showing
  // The same file shown again (the job's summary, then the same file loaded) keeps its intervals:
  // no frame without them, no second fetch.
  const intervals = shown.source === source ? shown.intervals : null
  Object.assign(shown, { summary, source, intervals, family: '', slice: '' })
  renderSummary()
  if (intervals) return
  // The average reward's intervals come from the episodes, when they sit beside the summary.
  episodesBeside(source)
    .then((episodes) => {
      if (!episodes || ticket !== showing) return
      shown.intervals = rewardIntervals(episodes)
      renderSummary()
    })
    .catch(() => undefined)
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
    if (following !== null && following === status.job_id) {
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
