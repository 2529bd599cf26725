/**
 * The play page in headless Chromium: pick releaseops-v2 and a dataset row, start an episode, call tools
 * by clicking; the page shows the proposals, the evidence, and rewards that equal the same calls made on
 * the env in process. Screenshots are checked, and the page logged no errors.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { Observation } from '../src/core/env/env-api.js'
import { envRegistry, makeEnv } from '../src/envs/index.js'
import { pageErrors, screenshot } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import type { OperationsServer } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page

useDashboardSession({ path: '/ui/play.html', opened: (session) => ({ server, page } = session) })

interface Proposal {
  id: string
  refs: string[]
}

describe('play page', () => {
  it('offers the envs, the splits and the rows of the default env', async () => {
    await page.waitForSelector('#row option[value="0"]', { state: 'attached' })
    expect(await page.inputValue('#env')).toBe('releaseops-v2')
    expect(await page.locator('#env option').allTextContents()).toEqual(
      expect.arrayContaining(['releaseops-v1', 'releaseops-v2 (default)']),
    )
    expect(await page.locator('#split option').allTextContents()).toEqual(['train', 'eval_seen', 'eval_unseen', 'eval'])
    const row = envRegistry.get('releaseops-v2').dataset?.rows('train')[0]
    expect(await page.inputValue('#seed')).toBe(String(row?.seed))
    expect(await page.inputValue('#family')).toBe(String(row?.family))
  })

  it('plays an episode by clicking tools; rewards equal the env’s', async () => {
    const dataset = envRegistry.get('releaseops-v2').dataset
    const row = dataset?.rows('train')[0]
    if (!dataset || !row) throw new Error('no dataset')
    const env = makeEnv('releaseops-v2')
    const reset = env.reset(dataset.toResetParams(row))
    const view = (reset.observation as Observation & { view: { proposals: Proposal[] } }).view
    const ciRun = view.proposals.flatMap((proposal) => proposal.refs).find((ref) => ref.startsWith('ci_run')) as string

    await page.click('[data-testid=start]')
    await page.waitForSelector('[data-testid=proposals] tbody tr')
    expect(await page.locator('[data-testid=proposals] tbody tr td:first-child').allTextContents()).toEqual(
      view.proposals.map((proposal) => proposal.id),
    )
    expect(await page.textContent('[data-testid=reward]')).toBe('step reward 0 · total 0')
    expect(await page.textContent('[data-testid=state]')).toContain('phasetriage')

    // Evidence: the ci run id is pre-filled from the proposals' refs.
    expect(await page.inputValue('[data-testid=tool-inspect_ci_run] input[name=run_id]')).toBe(ciRun)
    await page.click('[data-testid=call-inspect_ci_run]')
    await page.waitForSelector('[data-testid=history] li')
    const inspected = env.step({ name: 'inspect_ci_run', arguments: { run_id: ciRun } })
    expect(await page.textContent('[data-testid=history] li')).toBe(
      `inspect_ci_run({"run_id":"${ciRun}"}) → reward ${inspected.reward.toFixed(3)}, total ${inspected.info.cumulative_reward.toFixed(3)}`,
    )
    expect(await page.textContent('[data-testid=evidence] pre')).toContain(ciRun)

    // A bad call is shown with its error and penalty, and the episode goes on.
    await page.fill('[data-testid=tool-approve_proposal] input[name=proposal_id]', 'p0')
    await page.click('[data-testid=call-approve_proposal]')
    await page.waitForSelector('[data-testid=history] li:nth-child(2)')
    const bad = env.step({ name: 'approve_proposal', arguments: { proposal_id: 'p0' } })
    expect(bad.observation.error?.code).toBe('unknown_proposal')
    expect(await page.textContent('[data-testid=history] li:nth-child(2)')).toBe(
      `approve_proposal({"proposal_id":"p0"}) → reward ${bad.reward.toFixed(3)}, total ${bad.info.cumulative_reward.toFixed(3)} · unknown_proposal`,
    )
    expect(await page.textContent('[data-testid=observation-error]')).toContain('unknown_proposal')

    await page.selectOption('[data-testid=tool-hold_release] select[name=reason_code]', 'risk_too_high')
    await page.click('[data-testid=call-hold_release]')
    await page.waitForSelector('[data-testid=history] li:nth-child(3)')
    const held = env.step({ name: 'hold_release', arguments: { reason_code: 'risk_too_high' } })
    expect(await page.textContent('[data-testid=reward]')).toContain(`total ${held.info.cumulative_reward.toFixed(3)}`)
    expect(await page.textContent('[data-testid=state]')).toContain(
      `phase${(held.observation as { view: { phase: string } }).view.phase}`,
    )

    const shot = await screenshot(page, 'play')
    expect(shot.width).toBe(1280)
    expect(shot.height).toBeGreaterThan(900)
    expect(shot.colors).toBeGreaterThan(20)
    expect(pageErrors(page)).toEqual([])
  })

  it('the server counted what the page did', async () => {
    const counters = (await (await server.call('/counters?env=releaseops-v2')).json()) as {
      envs: Record<string, { tool_calls: Record<string, number>; tool_errors: number }>
    }
    expect(counters.envs['releaseops-v2']).toMatchObject({
      tool_calls: { inspect_ci_run: 1, approve_proposal: 1, hold_release: 1 },
      tool_errors: 1,
    })
  })
})
