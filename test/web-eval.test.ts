/**
 * The eval page in headless Chromium: an eval job started from the form (two baseline policies on rows
 * spread over the slices of a split) runs on the server; its summary appears as tables whose cells are
 * the job's own numbers with their Wilson 95% intervals, per-family charts are drawn with one dataset
 * per policy, and the summary file the job wrote under the outputs root can be reopened from the file list.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { EvalJobStatus } from '../src/eval/eval-job.js'
import { canvasColors, pageErrors, screenshot } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { type OperationsServer, waitFor } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page

const policies = ['phase-aware-rule', 'naive']
const format = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3))

// Entering the token reloads the lists; requests made before it (401s) are not errors of this test.
useDashboardSession({
  path: '/ui/eval.html',
  ready: '[data-testid=policies] input[name=policy]',
  opened: (session) => ({ server, page } = session),
})

describe('eval page', () => {
  it('runs an eval job from the form and shows its summary as tables and charts', async () => {
    await page.waitForSelector('[data-testid=policies] input[name=policy]')
    expect(await page.inputValue('#env')).toBe('releaseops-v2')
    for (const input of await page.locator('[data-testid=policies] input[name=policy]').all()) {
      if (!policies.includes((await input.getAttribute('value')) ?? '')) await input.uncheck()
    }
    await page.fill('#rows', '12')
    await page.click('[data-testid=run]')
    await page.waitForSelector('[data-testid=overall-table] tbody tr', { timeout: 60_000 })
    let status: EvalJobStatus | undefined
    await waitFor(async () => {
      status = (await (await server.call('/api/eval')).json()) as EvalJobStatus
      return status.state !== 'running'
    }, 60_000)
    if (!status?.summary) throw new Error(`eval job ended ${status?.state}`)
    expect(status).toMatchObject({ state: 'succeeded', env_id: 'releaseops-v2', split: 'eval', done: 24, total: 24 })
    expect(await page.textContent('[data-testid=job]')).toContain('succeeded (24/24)')

    // Overall: one row per policy, n and avg_reward are the job's numbers.
    const summary = status.summary as unknown as Record<
      string,
      { overall: Record<string, number> & { ci95?: Record<string, [number, number]> } }
    >
    expect(Object.keys(summary).sort()).toEqual([...policies].sort())
    const rows = await page.locator('[data-testid=overall-table] tbody tr').all()
    expect(rows).toHaveLength(2)
    const headers = await page.locator('[data-testid=overall-table] thead th').allTextContents()
    expect(headers.slice(0, 3)).toEqual(['policy', 'n', expect.any(String)])
    for (const row of rows) {
      const cells = await row.locator('td').allTextContents()
      const block = summary[cells[0] as string]?.overall
      if (!block) throw new Error(`unknown policy row ${cells[0]}`)
      expect(cells[1]).toBe(String(block.count))
      const rewardColumn = headers.indexOf('avg_reward')
      expect(cells[rewardColumn]).toBe(format(block.avg_reward as number))
      // A rate with an interval shows it: value [low, high].
      const rateKey = headers.find((key) => block.ci95?.[key] !== undefined)
      if (!rateKey) throw new Error('no rate with a 95% interval in the summary')
      const [low, high] = (block.ci95 as Record<string, [number, number]>)[rateKey] as [number, number]
      expect(cells[headers.indexOf(rateKey)]).toBe(`${format(block[rateKey] as number)} [${format(low)}, ${format(high)}]`)
    }
    // Per split and per family tables for each policy.
    for (const policy of policies) {
      const block = summary[policy] as unknown as { by_split: Record<string, unknown>; by_family: Record<string, unknown> }
      expect(Object.keys(block.by_split).length).toBeGreaterThan(0)
      expect(await page.locator(`[data-testid=split-${policy}] tbody tr td:first-child`).allTextContents()).toEqual(
        Object.keys(block.by_split),
      )
      const families = Object.keys(block.by_family)
      expect(families.length).toBeGreaterThan(1)
      expect(await page.locator(`[data-testid=family-${policy}] tbody tr td:first-child`).allTextContents()).toEqual(families)
    }

    // Per-family charts: one dataset per policy over the families, drawn (not blank).
    // One round trip (a string: no DOM types here); an element handle's two can straddle a re-render.
    const chart = (await page.evaluate(`(() => {
      const instance = Chart.getChart(document.querySelector('[data-testid=chart-avg_reward]'))
      return { labels: instance.data.labels, datasets: instance.data.datasets.map((set) => set.label) }
    })()`)) as { labels: string[]; datasets: string[] }
    expect(chart.datasets.sort()).toEqual([...policies].sort())
    expect(chart.labels.length).toBeGreaterThan(0)
    expect(await canvasColors(page, '[data-testid=chart-avg_reward]')).toBeGreaterThan(8)

    const shot = await screenshot(page, 'eval')
    expect(shot.width).toBe(1280)
    expect(shot.height).toBeGreaterThan(900)
    expect(shot.colors).toBeGreaterThan(20)
    expect(pageErrors(page)).toEqual([])
  }, 90_000)

  it('reopens the summary file the job wrote from the outputs list', async () => {
    const status = (await (await server.call('/api/eval')).json()) as EvalJobStatus
    await page.reload()
    await page.waitForSelector(`[data-testid=file] option[value="${status.summary_path}"]`, { state: 'attached' })
    await page.selectOption('[data-testid=file]', status.summary_path as string)
    await page.click('[data-testid=load]')
    await page.waitForSelector(`#summary p:has-text("Source: ${status.summary_path}")`)
    expect(await page.locator('[data-testid=overall-table] tbody tr td:first-child').allTextContents()).toEqual(
      Object.keys(status.summary ?? {}),
    )
    expect(pageErrors(page)).toEqual([])
  })
})
