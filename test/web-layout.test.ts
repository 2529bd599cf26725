/**
 * The dashboard at 1280 and 1920 px in headless Chromium, each page screenshotted at both widths
 * (under outputs/test-screenshots/) and failed on any overflow or id drawn on two lines
 * (`layoutFaults`): the page uses the whole width; Play keeps every result of the episode, explains
 * the starting total of v3 (−0.6) and what a total is made of, titles the page after its env and shows
 * a rule under both its names; Eval draws per-family charts with 95% error bars (a rate's Wilson
 * interval, the average reward's from the run's episodes) and filters by family and slice; Replay
 * filters episodes by family, slice and outcome and draws the episode's reward timeline; Training
 * compares runs.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import { wilsonMeanInterval } from '../src/core/testing/index.js'
import { makeEnv } from '../src/envs/index.js'
import type { EvalJobStatus } from '../src/eval/eval-job.js'
import { layoutFaults, pageErrors, screenshot } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { type OperationsServer, waitFor } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page
let job: EvalJobStatus
const runIds: string[] = []

useDashboardSession({
  path: '/ui/index.html',
  ready: '[data-testid=server] table',
  prepare: async (server) => {
    const policies = ['naive', 'dissent-first-reader']
    await server.call('/api/eval', { method: 'POST', body: { env_id: 'releaseops-v3', split: 'eval', policies } })
    await waitFor(async () => {
      job = (await (await server.call('/api/eval')).json()) as EvalJobStatus
      return job.state !== 'running'
    }, 240_000)
    // Two runs of the trainer double for the runs view.
    process.env.FAKE_TRAINER_STEP_SECONDS = '0.05'
    for (const steps of [3, 5]) {
      const started = (await (
        await server.call('/train/start', { method: 'POST', body: { preset: 'pilot', max_steps: steps, logging_steps: 1 } })
      ).json()) as { run_id: string }
      runIds.push(started.run_id)
      await waitFor(async () => !((await (await server.call('/train/status')).json()) as { running: boolean }).running)
    }
    delete process.env.FAKE_TRAINER_STEP_SECONDS
  },
  opened: (session) => ({ server, page } = session),
  openTimeoutMs: 300_000,
})

/** At 1280 and 1920 px: the page fills the width, nothing overflows, no id breaks; a screenshot of each. */
async function checkWidths(name: string): Promise<void> {
  for (const width of [1280, 1920]) {
    await page.setViewportSize({ width, height: 900 })
    const main = (await page.evaluate(`document.querySelector('main').getBoundingClientRect().width`)) as number
    expect(main, `${name} at ${width} px: main's width`).toBeGreaterThan(width * 0.95)
    // Charts follow a new width a frame or more later (ResizeObserver): wait for the layout to settle.
    await expect.poll(() => layoutFaults(page), { message: `${name} at ${width} px`, timeout: 15_000 }).toEqual([])
    const shot = await screenshot(page, `layout-${name}-${width}`)
    expect(shot.width).toBe(width)
    expect(shot.colors).toBeGreaterThan(20)
  }
  await page.setViewportSize({ width: 1280, height: 900 })
}

interface ChartData {
  labels: string[]
  datasets: { label: string; data: unknown[]; intervals: ([number, number] | null)[] | null }[]
}

/**
 * A chart's data, read in one round trip (a string: the tests' TypeScript has no DOM types). An
 * element handle takes two, and a re-render between them leaves the handle on a destroyed chart.
 */
async function chartOf(selector: string): Promise<ChartData> {
  const data = await page.evaluate(`(() => {
    const chart = Chart.getChart(document.querySelector(${JSON.stringify(selector)}))
    if (!chart) return null
    return { labels: chart.data.labels, datasets: chart.data.datasets.map((set) => ({ label: set.label, data: set.data, intervals: set.intervals ?? null })) }
  })()`)
  expect(data, `a chart at ${selector}`).not.toBeNull()
  return data as ChartData
}

/** Polls until the select offers more than one option (the env's rows are in). */
async function waitForOptions(selector: string): Promise<void> {
  await expect.poll(() => page.locator(`${selector} option`).count(), { timeout: 30_000 }).toBeGreaterThan(1)
}

const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3))

describe('the dashboard at 1280 and 1920 px', () => {
  it('Play: the env in the title, every result kept, the total explained, a rule under both its names', async () => {
    await page.goto(`${server.url}/ui/play.html`)
    await page.waitForSelector('#env option[value="grading-v1"]', { state: 'attached' })
    await page.selectOption('#env', 'grading-v1')
    await expect.poll(() => page.textContent('[data-testid=title]')).toBe('Play an episode of grading-v1')
    expect(await page.textContent('[data-testid=env-description]')).toMatch(/^Data classification and grading/)
    await page.selectOption('#env', 'releaseops-v3')
    await waitForOptions('#family')
    expect(await page.textContent('[data-testid=title]')).toBe('Play an episode of releaseops-v3')
    expect(await page.title()).toBe('Play releaseops-v3 · ReleaseOps')
    const rule = page.locator('[data-testid=tool-block_proposal] select[name=rule_id] option')
    expect(await rule.allTextContents()).toEqual([
      'S1 · no_p1_open',
      'S2 · payments_tests_must_pass',
      'S3 · deploy_checks_before_ship',
    ])
    expect(await rule.evaluateAll((options) => options.map((option) => (option as unknown as { value: string }).value))).toEqual([
      'S1',
      'S2',
      'S3',
    ])

    await page.click('[data-testid=start]')
    await page.waitForSelector('[data-testid=proposals] tbody tr')
    expect(await page.textContent('[data-testid=reward]')).toBe('step reward 0 · total -0.600')
    expect(await page.textContent('[data-testid=reward-explained]')).toBe(
      "The episode starts at -0.600: unfinished, it scores as a missed deadline (the env's unfinished_episode_reward). Each step adds its reward; a decision that ends the episode replaces the -0.600.",
    )
    // The same two inspections on the env in process.
    const env = makeEnv('releaseops-v3')
    const row = await page.inputValue('#row')
    const rows = (await (await server.call(`/api/envs/releaseops-v3/rows?limit=400`)).json()) as {
      rows: { index: number; reset: Record<string, unknown> }[]
    }
    env.reset(rows.rows.find((item) => String(item.index) === row)?.reset as never)
    const runId = await page.inputValue('[data-testid=tool-inspect_ci_run] input[name=run_id]')
    const prId = await page.inputValue('[data-testid=tool-inspect_pr_diff] input[name=pr_id]')
    await page.click('[data-testid=call-inspect_ci_run]')
    await page.waitForSelector('[data-testid=evidence-1]')
    await page.click('[data-testid=call-inspect_pr_diff]')
    await page.waitForSelector('[data-testid=evidence-2]')
    const first = env.step({ name: 'inspect_ci_run', arguments: { run_id: runId } })
    const second = env.step({ name: 'inspect_pr_diff', arguments: { pr_id: prId } })
    // The first inspection is still on the page after the second answered, newest first.
    expect(
      await page
        .locator('[data-testid=evidence] > li')
        .evaluateAll((items) => items.map((item) => item.getAttribute('data-testid'))),
    ).toEqual(['evidence-2', 'evidence-1'])
    expect(await page.textContent('[data-testid=evidence-1]')).toContain(JSON.stringify({ run_id: runId }))
    expect(await page.textContent('[data-testid=evidence-1] pre')).toBe(JSON.stringify(first.observation.result, null, 2))
    expect(await page.textContent('[data-testid=evidence-2] pre')).toBe(JSON.stringify(second.observation.result, null, 2))
    const total = second.info.cumulative_reward
    expect(await page.textContent('[data-testid=reward-explained]')).toBe(
      `Total ${format(total)} = this step ${format(second.reward)} + the 1 before it ${format(first.reward)} + -0.600 while unfinished (scored as a missed deadline until a decision ends the episode).`,
    )
    expect(total).toBeCloseTo(first.reward + second.reward - 0.6, 9)
    await checkWidths('play')
    // From 1600 px the evidence has a column of its own between the observation and the tools.
    await page.setViewportSize({ width: 1920, height: 900 })
    const left = (selector: string) => page.evaluate(`document.querySelector('${selector}').getBoundingClientRect().left`)
    expect(await left('.area-evidence')).toBeGreaterThan((await left('.area-observation')) as number)
    expect(await left('.area-actions')).toBeGreaterThan((await left('.area-evidence')) as number)
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(pageErrors(page)).toEqual([])
  })

  it('Eval: per-family charts with 95% error bars, a real height, filters by family and slice', async () => {
    const summaryPath = job.summary_path as string
    await page.goto(`${server.url}/ui/eval.html`)
    await page.waitForSelector(`#file option[value="${summaryPath}"]`, { state: 'attached' })
    await page.selectOption('#file', summaryPath)
    await page.click('[data-testid=load]')
    // The average reward's intervals come from the episodes file beside the summary.
    await page.waitForSelector('[data-testid=chart-avg_reward][data-intervals=yes]')
    const chartData = (key: string) => chartOf(`[data-testid=chart-${key}]`)
    const summary = JSON.parse(await readFile(join(server.outputs, summaryPath), 'utf8')) as Record<
      string,
      { by_family: Record<string, { ci95: Record<string, [number, number]> }> }
    >
    const rates = await chartData('safe_ship_rate')
    for (const dataset of rates.datasets) {
      expect(dataset.intervals).toEqual(
        rates.labels.map((family) => summary[dataset.label]?.by_family[family]?.ci95.safe_ship_rate),
      )
    }
    const episodes = (await readFile(join(server.outputs, job.episodes_path as string), 'utf8'))
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { policy: string; family: string; reward: number })
    const rewards = await chartData('avg_reward')
    for (const dataset of rewards.datasets) {
      const expected = rewards.labels.map((family) => {
        const values = episodes
          .filter((item) => item.policy === dataset.label && item.family === family)
          .map((item) => item.reward)
        const mean = values.reduce((left, right) => left + right, 0) / values.length
        return wilsonMeanInterval(mean, values.length, [Math.min(...values), Math.max(...values)])
      })
      expect(dataset.intervals).toEqual(expected.map(([low, high]) => [expect.closeTo(low, 9), expect.closeTo(high, 9)]))
    }
    const height = (await page.evaluate(
      `document.querySelector('[data-testid=chart-avg_reward]').getBoundingClientRect().height`,
    )) as number
    expect(height).toBeGreaterThan(300)

    const family = rates.labels[1] as string
    await page.selectOption('[data-testid=filter-family]', family)
    expect((await chartData('safe_ship_rate')).labels).toEqual([family])
    expect(await page.locator('[data-testid=family-naive] tbody tr td:first-child').allTextContents()).toEqual([family])
    await page.selectOption('[data-testid=filter-slice]', 'eval_unseen')
    expect(await page.locator('[data-testid=split-naive] tbody tr td:first-child').allTextContents()).toEqual(['eval_unseen'])
    await page.selectOption('[data-testid=filter-family]', '')
    await page.selectOption('[data-testid=filter-slice]', '')
    await checkWidths('eval')
    expect(pageErrors(page)).toEqual([])
  })

  it('Replay: filters by family, slice and outcome; the reward timeline of the episode', async () => {
    const episodesPath = job.episodes_path as string
    await page.goto(`${server.url}/ui/replay.html`)
    await page.waitForSelector(`#file option[value="${episodesPath}"]`, { state: 'attached' })
    await page.selectOption('#file', episodesPath)
    await page.click('[data-testid=load]')
    await page.waitForSelector('[data-testid=episode-table] tbody tr')
    const column = async (index: number) =>
      page.locator(`[data-testid=episode-table] tbody tr td:nth-child(${index})`).allTextContents()
    await page.selectOption('[data-testid=outcome-filter]', 'unsafe_ship')
    await page.selectOption('[data-testid=slice-filter]', 'eval_unseen')
    const families = await page.locator('[data-testid=family-filter] option').allTextContents()
    expect(families[0]).toMatch(/^all \(\d+\)$/)
    expect(new Set(await column(7))).toEqual(new Set(['unsafe_ship']))
    expect(new Set(await column(4))).toEqual(new Set(['eval_unseen']))
    const family = (await column(3))[0] as string
    await page.selectOption('[data-testid=family-filter]', family)
    expect(new Set(await column(3))).toEqual(new Set([family]))
    const line = Number((await column(1))[0])
    await page.click(`[data-testid=replay-${line}]`)
    await page.waitForSelector('[data-testid=frame-0].current')
    const frames = await page.locator('[data-testid=timeline] button').count()
    await page.click(`[data-testid=frame-${frames - 1}]`)
    await page.waitForSelector(`[data-testid=frame-${frames - 1}].current`)
    // The timeline's totals are the replies' own, ending at the recorded reward.
    const recorded = (await readFile(join(server.outputs, episodesPath), 'utf8')).split('\n')[line - 1] as string
    const episode = JSON.parse(recorded) as { reward: number; steps: { reward: number }[] }
    const timeline = (await chartOf('[data-testid=reward-timeline]')).datasets.map((set) => set.data as (number | null)[])
    expect(timeline[1]).toEqual([null, ...episode.steps.map((step) => step.reward)])
    expect(timeline[0]?.at(-1)).toBeCloseTo(episode.reward, 9)
    expect(timeline[0]).toHaveLength(frames)
    expect(await page.locator('[data-testid=evidence] > li').count()).toBe(episode.steps.length)
    await checkWidths('replay')
    expect(pageErrors(page)).toEqual([])
  })

  it('Training: runs compared side by side (state, reward, verdict) and on one chart', async () => {
    await page.goto(`${server.url}/ui/train.html`)
    await page.waitForSelector('[data-testid=runs-table] tbody tr:nth-child(2)')
    const table = page.locator('[data-testid=runs-table] tbody tr')
    expect(await table.locator('td:nth-child(2)').allTextContents()).toEqual([...runIds].reverse())
    const newest = await table.first().locator('td').allTextContents()
    expect(newest.slice(2, 10)).toEqual([
      'pilot',
      'Qwen/Qwen3-0.6B',
      'succeeded',
      '5/5',
      '-0.400 → 0 (+0.400)',
      '0',
      '1.500',
      'not probed',
    ])
    await expect.poll(() => page.getAttribute('[data-testid=runs]', 'data-compared')).toBe('2')
    const curves = (await chartOf('[data-testid=runs-chart]')).datasets.map((set) => set.data.length)
    expect(curves).toEqual([5, 3])
    await page.uncheck(`[data-testid=compare-${runIds[0]}]`)
    await expect.poll(() => page.getAttribute('[data-testid=runs]', 'data-compared')).toBe('1')
    await checkWidths('train')
    await page.goto(`${server.url}/ui/index.html`)
    await page.waitForSelector('[data-testid=server] table')
    await checkWidths('home')
    expect(pageErrors(page).filter((error) => !/401/.test(error))).toEqual([])
  })
})
