/**
 * The training page in headless Chromium, over a run of the trainer process double: without the token
 * the live feed and a start are refused on the page; with it the form starts a run, the live feed (`/train/live`) grows the
 * curves point by point, the status ends `succeeded`, the summary table and the server-rendered plot
 * appear, and the rendered charts and screenshot are not blank.
 */
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { canvasColors, launchBrowser, openPage, pageErrors, screenshot } from './train-support/browser.js'
import { type OperationsServer, startOperationsServer, token } from './train-support/operations-server.js'

let server: OperationsServer
let browser: Browser
let page: Page

beforeAll(async () => {
  process.env.FAKE_TRAINER_STEP_SECONDS = '0.4'
  server = await startOperationsServer()
  browser = await launchBrowser()
  page = await openPage(browser, `${server.url}/ui/train.html`, '')
}, 60_000)

afterAll(async () => {
  delete process.env.FAKE_TRAINER_STEP_SECONDS
  await browser?.close()
  await server?.dispose()
})

describe('training page', () => {
  it('without the token: the live feed and a start are refused, with a hint to enter it', async () => {
    await page.waitForSelector('#message .error')
    expect(await page.textContent('#message')).toContain('live feed: unauthorized')
    expect(await page.textContent('#message')).toContain('enter the server token above')
    await page.click('[data-testid=start]')
    // Polled from here: the page's CSP (script-src 'self') forbids the eval a string waitForFunction needs.
    await expect.poll(() => page.textContent('#message'), { timeout: 15_000 }).not.toContain('live feed')
    expect(await page.textContent('#message')).toMatch(/^unauthorized: .*\(enter the server token above\)/)
    const status = (await (await server.call('/train/status')).json()) as { state: string; run_id: string | null }
    expect(status).toMatchObject({ state: 'idle', run_id: null })
  })

  it('starts a run with the token and follows it live to the end', async () => {
    await page.fill('#token', token)
    await page.dispatchEvent('#token', 'change')
    await page.waitForSelector('[data-testid=status-state]')
    expect(await page.textContent('[data-testid=status-state]')).toContain('idle')
    await page.fill('[data-testid=max-steps]', '6')
    await page.click('[data-testid=start]')
    // The banner says the run started, then follows it (running, then how it ended).
    await page.waitForSelector('#message .notice.info')
    expect(await page.textContent('#message')).toMatch(/^Run \S+ (started|running): step GRPO \(1\/1\)\.$/)
    const started = (await (await server.call('/train/status')).json()) as { run_id: string; preset: string }
    expect(started.preset).toBe('smoke')
    expect(await page.textContent('[data-testid=status-run]')).toContain(started.run_id)

    // Points arrive one logged step at a time over the live feed, up to all six.
    const seen = new Set<number>()
    const deadline = Date.now() + 30_000
    while (Date.now() < deadline) {
      seen.add(Number((await page.getAttribute('body', 'data-points')) ?? 0))
      if ((await page.textContent('[data-testid=status-state]'))?.includes('succeeded') && seen.has(6)) break
      await page.waitForTimeout(50)
    }
    expect(seen.has(6)).toBe(true)
    expect([...seen].some((points) => points > 0 && points < 6)).toBe(true)
    expect(await page.textContent('[data-testid=status-state]')).toContain('succeeded')
    expect(await page.textContent('[data-testid=status-exit]')).toContain('code 0')
    await page.waitForSelector('#message .notice.ok')
    expect(await page.textContent('#message')).toMatch(new RegExp(`^Run ${started.run_id} succeeded in [0-9.]+ s\\.$`))

    // The chart data is the run's logged history.
    const rewards = await page.evaluate(() => {
      const chart = (
        globalThis as unknown as { Chart: { getChart: (id: string) => { data: { datasets: { data: unknown[] }[] } } } }
      ).Chart.getChart('reward-chart')
      return chart.data.datasets[0]?.data
    })
    expect(rewards).toEqual([1, 2, 3, 4, 5, 6].map((step) => expect.closeTo(-0.5 + 0.1 * step, 9)))

    await page.waitForSelector('[data-testid=summary-table]')
    expect(await page.textContent('[data-testid=summary-table]')).toContain('reward')
    // An <img src> cannot send the token: the page fetches the PNG with it and shows it as a blob: URL.
    await expect
      .poll(
        () =>
          page.$eval('[data-testid=plot]', (element: unknown) => {
            const image = element as { src: string; complete: boolean; naturalWidth: number }
            return image.src.startsWith('blob:') && image.complete && image.naturalWidth > 0
          }),
        { timeout: 15_000 },
      )
      .toBe(true)
    expect(await page.$eval('[data-testid=plot]', (image: unknown) => (image as { naturalWidth: number }).naturalWidth)).toBe(900)
    expect(await page.textContent('[data-testid=log]')).toContain('fake trainer: step 6/6')
    expect(await page.isDisabled('[data-testid=stop]')).toBe(true)

    for (const chart of ['reward-chart', 'loss-chart', 'tools-chart', 'plot']) {
      expect(await canvasColors(page, `[data-testid=${chart}]`)).toBeGreaterThan(8)
    }
    const shot = await screenshot(page, 'train')
    expect(shot.width).toBe(1280)
    expect(shot.height).toBeGreaterThan(900)
    expect(shot.colors).toBeGreaterThan(20)
    // The one refused start before the token was entered is the only error the page saw.
    expect(pageErrors(page).filter((error) => !/401/.test(error))).toEqual([])
  })
})
