/**
 * Shared by every dashboard page: the navigation bar with the operator token (kept in sessionStorage,
 * sent as a bearer token, never in URLs), JSON requests with coded errors, a DOM builder that only
 * ever sets text (never HTML), and Server-Sent Events read with fetch (so the token can be sent).
 */

const tokenKey = 'releaseops.token'

export function getToken() {
  return sessionStorage.getItem(tokenKey) ?? ''
}

export function setToken(value) {
  if (value) sessionStorage.setItem(tokenKey, value)
  else sessionStorage.removeItem(tokenKey)
}

/** An element with attributes (`on*` functions become listeners) and children (strings become text). */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag)
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value)
    else if (key === 'dataset') Object.assign(node.dataset, value)
    else if (value === true) node.setAttribute(key, '')
    else node.setAttribute(key, String(value))
  }
  for (const child of children.flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue
    node.append(child instanceof Node ? child : document.createTextNode(String(child)))
  }
  return node
}

export function clear(node, ...children) {
  node.replaceChildren(
    ...children.flat(Number.POSITIVE_INFINITY).filter((child) => child !== undefined && child !== null && child !== false),
  )
  return node
}

export class ApiError extends Error {
  constructor(status, body) {
    const error = body?.error ?? {}
    super(error.message ?? `HTTP ${status}`)
    this.status = status
    this.code = error.code ?? `http_${status}`
    this.issues = error.issues ?? []
  }
}

function headers(json) {
  const result = {}
  const token = getToken()
  if (token) result.authorization = `Bearer ${token}`
  if (json) result['content-type'] = 'application/json'
  return result
}

/** A JSON request; throws ApiError with the server's code and message on an error status. */
export async function api(path, { method = 'GET', body } = {}) {
  const response = await fetch(path, {
    method,
    headers: headers(body !== undefined),
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  let parsed = text
  try {
    parsed = text ? JSON.parse(text) : null
  } catch {
    // plain text
  }
  if (!response.ok) throw new ApiError(response.status, typeof parsed === 'object' ? parsed : { error: { message: text } })
  return parsed
}

/** A binary resource (an image) fetched with the token, as an object URL for an <img> (an <img src> cannot send it). */
export async function objectUrl(path) {
  const response = await fetch(path, { headers: headers(false) })
  if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})))
  return URL.createObjectURL(await response.blob())
}

/** Server-Sent Events over fetch (EventSource cannot send a token). Returns a function that stops it. */
export function subscribe(path, onEvent, onError) {
  const controller = new AbortController()
  ;(async () => {
    const response = await fetch(path, { headers: headers(false), signal: controller.signal })
    if (!response.ok) throw new ApiError(response.status, await response.json().catch(() => ({})))
    const reader = response.body.getReader()
    const decoder = new TextDecoder()
    let buffer = ''
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return
      buffer += decoder.decode(value, { stream: true })
      let end = buffer.indexOf('\n\n')
      while (end >= 0) {
        const frame = buffer.slice(0, end)
        buffer = buffer.slice(end + 2)
        const event = /^event: (.+)$/m.exec(frame)?.[1]
        const data = /^data: (.+)$/m.exec(frame)?.[1]
        if (event && data) onEvent(event, JSON.parse(data))
        end = buffer.indexOf('\n\n')
      }
    }
  })().catch((error) => {
    if (!controller.signal.aborted) onError?.(error)
  })
  return () => controller.abort()
}

/** A message line: `kind` is ok, error or info. The same line again leaves the one shown (no flicker, no re-announcement). */
export function notice(node, kind, text) {
  const shown = node.firstElementChild
  if (text && node.childElementCount === 1 && shown.className === `notice ${kind}` && shown.textContent === text) return
  clear(node, text ? el('div', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text) : null)
}

export function describeError(error) {
  if (error instanceof ApiError) {
    const hint =
      error.code === 'token_not_configured'
        ? ' (then enter that operator token in the Token field above)'
        : error.code === 'unauthorized'
          ? ' (enter the server token above)'
          : ''
    const issues = error.issues.map((issue) => `${issue.path}: ${issue.message}`).join('; ')
    return `${error.code}: ${error.message}${hint}${issues ? ` [${issues}]` : ''}`
  }
  return String(error?.message ?? error)
}

export function formatNumber(value, digits = 3) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value === null || value === undefined ? '–' : String(value)
  return Number.isInteger(value) ? String(value) : value.toFixed(digits)
}

const pages = [
  ['index.html', 'Home'],
  ['play.html', 'Play'],
  ['replay.html', 'Replay'],
  ['eval.html', 'Eval'],
  ['train.html', 'Training'],
]

/** The header: page links and the token field. */
export function renderHeader(active) {
  const input = el('input', {
    type: 'password',
    id: 'token',
    placeholder: 'operator token',
    autocomplete: 'off',
    value: getToken(),
    'aria-label': 'Server token',
  })
  input.addEventListener('change', () => setToken(input.value.trim()))
  const header = el(
    'header',
    { class: 'top' },
    el('strong', {}, 'ReleaseOps'),
    el(
      'nav',
      {},
      pages.map(([href, label]) => el('a', { href, class: href === active ? 'active' : undefined }, label)),
    ),
    el('label', { class: 'token' }, 'Token ', input),
  )
  document.body.prepend(header)
}

/** Scripts that break between any two characters (Chinese, Japanese, Korean): never one unbreakable word. */
const breaksAnywhere = /[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]/

/**
 * A cell; one that holds a single word (an id, a state, a number: no space) is marked `one-word` and is
 * never wrapped, not even after a hyphen (`phase-aware-rule`).
 */
function cellOf(value) {
  const cell = el('td', {}, value)
  const text = cell.textContent.trim()
  if (text !== '' && !/\s/.test(text) && !breaksAnywhere.test(text)) cell.className = 'one-word'
  return cell
}

/** A table from column specs `[label, row => value]`. */
export function table(columns, rows, attributes = {}) {
  return el(
    'table',
    attributes,
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        columns.map(([label]) => el('th', {}, label)),
      ),
    ),
    el(
      'tbody',
      {},
      rows.map((row) =>
        el(
          'tr',
          {},
          columns.map(([, cell]) => cellOf(cell(row))),
        ),
      ),
    ),
  )
}
