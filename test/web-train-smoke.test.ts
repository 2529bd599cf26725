/**
 * The dashboard's smoke preset offline, in headless Chromium, with the real trainer: the RL Python
 * (`.venv-rl`), `python/train_grpo.py` and the tiny local Qwen3 that `train smoke` trains, built and
 * warmed up under the outputs root (the Hub is off: HF_HUB_OFFLINE). Stop during the model's
 * preparation ends the run there, leaving no process. A warm-up that misses its bar fails
 * cleanly: the status says failed at that step, with the cause (the step's own last word) and a link
 * to the log, and the banner follows. With the bar at 0 the run goes to its end (warm-up, GRPO, the
 * learning probe) and the runs table shows its verdict. The warm-up is cut to one step so the test
 * fits the suite; the preset's default is `train smoke`'s 200.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { processGroupMembers } from '../src/train/process-group.js'
import { tinyModelFolders } from '../src/train/smoke/tiny-model-settings.js'
import { launchBrowser, layoutFaults, openReadyPage, pageErrors, screenshot } from './train-support/browser.js'
import { type OperationsServer, startOperationsServer, token } from './train-support/operations-server.js'

const root = resolve(import.meta.dirname, '..')
const python = process.env.RELEASEOPS_TRAIN_PYTHON ?? resolve(root, '.venv-rl', 'bin', 'python')
const offline = { HF_HUB_OFFLINE: '1', TRANSFORMERS_OFFLINE: '1', HF_DATASETS_OFFLINE: '1' }
/**
 * The test waits on the run's states, and fails only when a run never ends. A quiet 2-core machine runs
 * each in a few minutes; under load 20–45 the run to the end took over 25.
 */
const runTimeout = 60 * 60_000

let server: OperationsServer
let browser: Browser
let page: Page
const saved: Record<string, string | undefined> = {}

beforeAll(async () => {
  if (!existsSync(python)) throw new Error(`No RL Python at ${python}: run \`bash scripts/setup-rl-python.sh\`.`)
  for (const [key, value] of Object.entries(offline)) {
    saved[key] = process.env[key]
    process.env[key] = value
  }
  server = await startOperationsServer({
    server: { defaultEnvId: 'releaseops-v3' },
    training: { python, trainScript: join(root, 'python', 'train_grpo.py'), smokeModel: undefined, liveIntervalMs: 250 },
  })
  browser = await launchBrowser()
  page = await openReadyPage({ browser, url: `${server.url}/ui/train.html`, token, ready: '[data-testid=status-state]' })
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.dispose()
  for (const [key, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
})

/** Fills the form as a person would: the smoke preset, a one-step warm-up, one GRPO step of two completions. */
async function startSmoke(options: { minRate: string; probe: 'yes' | 'no' }): Promise<string> {
  await page.selectOption('[data-testid=preset]', 'smoke')
  await page.fill('[data-testid=warmup-steps]', '1')
  await page.fill('[data-testid=warmup-min-rate]', options.minRate)
  await page.selectOption('[data-testid=probe]', options.probe === 'yes' ? '' : 'false')
  await page.fill('[data-testid=max-steps]', '1')
  await page.fill('[data-testid=generations]', '2')
  await page.fill('[data-testid=batch-size]', '2')
  // A run left by a failed test before this one would refuse the start.
  if (((await (await server.call('/train/status')).json()) as { running: boolean }).running)
    await server.call('/train/stop', { method: 'POST' })
  await page.click('[data-testid=start]')
  // The banner of the run before this one gives way to this one's.
  await expect.poll(() => page.textContent('#message'), { timeout: 60_000 }).toMatch(/^Run \S+ (started|running): /)
  const banner = (await page.textContent('#message')) as string
  expect(banner).toMatch(/^Run \S+ (started|running): step (build tiny Qwen3|warm-up) \([12]\/\d\)\.$/)
  return (/^Run (\S+)/.exec(banner) as RegExpExecArray)[1] as string
}

/** Waits until the page's status leaves running (the run's own pace: nothing is timed). */
async function waitForEnd(): Promise<string> {
  await expect
    .poll(async () => page.textContent('[data-testid=status-state]'), { timeout: runTimeout, interval: 1000 })
    .toMatch(/succeeded|failed|stopped/)
  return ((await page.textContent('[data-testid=status-state]')) as string).replace('state', '')
}

const runLog = (runId: string) => readFile(join(server.outputs, 'runs', runId, 'train.log'), 'utf8')

describe('the smoke preset from the dashboard, offline', () => {
  it(
    'Stop during the model’s preparation stops the run there: no later step starts, no process is left',
    async () => {
      const runId = await startSmoke({ minRate: '0.5', probe: 'no' })
      const pid = Number(await page.textContent('[data-testid=status-pid] div'))
      await page.click('[data-testid=stop]')
      expect(await waitForEnd()).toBe('stopped')
      await expect.poll(() => page.textContent('#message')).toMatch(new RegExp(`^Run ${runId} stopped in [0-9.]+ s\\.$`))
      expect(await processGroupMembers(pid)).toEqual([])
      const log = await runLog(runId)
      expect(log).toMatch(/Training stopped at /)
      expect(log).not.toContain('Step 3/3')
    },
    runTimeout,
  )

  it(
    'a warm-up that misses its bar fails cleanly: failed at that step, the cause, the log',
    async () => {
      const runId = await startSmoke({ minRate: '0.5', probe: 'no' })
      expect(await waitForEnd()).toBe('failed')
      expect(await page.textContent('[data-testid=status-step]')).toBe('stepwarm-up (2/3)')
      expect(await page.textContent('[data-testid=failure] strong')).toBe('Step warm-up exited with code 3.')
      const cause = 'warmup: the model does not emit tool calls reliably (0.00 < 0.50)'
      expect(await page.textContent('[data-testid=failure-cause]')).toBe(`Cause: ${cause}`)
      // The banner followed the run: no "started" line left, the failure and its cause instead.
      expect(await page.getAttribute('#message .notice', 'class')).toBe('notice error')
      expect(await page.textContent('#message')).toMatch(
        new RegExp(
          `^Run ${runId} failed in [0-9.]+ s: Step warm-up exited with code 3\\. Cause: ${cause.replace(/[().]/g, '\\$&')}$`,
        ),
      )
      // The log link downloads the run's log (fetched with the token: an <a href> cannot send it).
      await expect.poll(() => page.getAttribute('[data-testid=failure-log]', 'href')).toMatch(/^blob:/)
      const [download] = await Promise.all([page.waitForEvent('download'), page.click('[data-testid=failure-log]')])
      expect(download.suggestedFilename()).toBe(`${runId}-train.log`)
      const linked = await readFile(await download.path(), 'utf8')
      expect(linked).toBe(await runLog(runId))
      expect(linked).toContain(cause)
      expect(linked).not.toContain('Step 3/3')
      expect(linked).not.toMatch(/couldn't connect|huggingface\.co/)
      await page.waitForSelector(`[data-testid=runs-table] tr:has-text("${runId}")`)
      expect(await page.textContent(`[data-testid=runs-table] tr:has-text("${runId}")`)).toContain(cause)
    },
    runTimeout,
  )

  it(
    'with the bar at 0 the tiny model trains to the end offline, probe and verdict included',
    async () => {
      const runId = await startSmoke({ minRate: '0', probe: 'yes' })
      expect(await waitForEnd()).toBe('succeeded')
      expect(await page.textContent('[data-testid=status-step]')).toBe('steplearning probe (4/4)')
      expect(await page.getAttribute('#message .notice', 'class')).toBe('notice ok')
      expect(await page.textContent('#message')).toMatch(new RegExp(`^Run ${runId} succeeded in [0-9.]+ s\\.$`))
      expect(await page.locator('[data-testid=failure]').count()).toBe(0)
      const log = await runLog(runId)
      for (const step of ['Step 1/4 build tiny Qwen3', 'Step 2/4 warm-up', 'Step 3/4 GRPO', 'Step 4/4 learning probe'])
        expect(log).toContain(step)
      expect(log).not.toMatch(/couldn't connect|huggingface\.co/)
      expect(existsSync(join(server.outputs, tinyModelFolders.warm, 'model.safetensors'))).toBe(true)
      expect(existsSync(join(server.outputs, 'runs', runId, 'final', 'model.safetensors'))).toBe(true)
      await expect.poll(() => page.getAttribute('body', 'data-points')).toBe('1')

      // The runs table shows the probe's verdict, as learning.json has it.
      const learning = JSON.parse(await readFile(join(server.outputs, 'runs', runId, 'learning.json'), 'utf8')) as {
        metric: string | null
        verdict: { metrics: { reward: { gain: number } } }
      }
      const row = `[data-testid=runs-table] tr:has-text("${runId}")`
      await page.waitForSelector(`${row} >> text=/learned/`)
      const cells = await page.locator(`${row} td`).allTextContents()
      expect(cells.slice(1, 6)).toEqual([runId, 'smoke', 'tiny-qwen3-warm', 'succeeded', '1/1'])
      expect(cells[9]).toMatch(learning.metric === null ? /^not learned/ : /^learned: /)
      if (learning.metric === null) {
        const gain = learning.verdict.metrics.reward.gain
        expect(cells[9]).toContain(Number.isInteger(gain) ? String(gain) : gain.toFixed(3))
      }

      for (const width of [1280, 1920]) {
        await page.setViewportSize({ width, height: 900 })
        expect(await layoutFaults(page), `at ${width} px`).toEqual([])
        expect((await screenshot(page, `train-smoke-${width}`)).width).toBe(width)
      }
      expect(pageErrors(page)).toEqual([])
    },
    runTimeout,
  )
})
