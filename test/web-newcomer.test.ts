/**
 * The dashboard as a newcomer meets it, in headless Chromium at 1280 px: grading-v1 played to its end by
 * clicking (Start sends the reset the env takes, the field and catalog are shown, a tool call and the
 * final answer through the page, reward equal to the env's in process); switching env clears the old
 * episode; a block the env refuses (`accepted: false`) is shown as a failure; no table, button or history
 * line is cut off on Play, Replay and Eval; an eval job's "started" line is replaced when the job ends.
 */
import type { Page } from 'playwright-core'
import { describe, expect, it } from 'vitest'
import type { ToolCall } from '../src/core/env/env-api.js'
import { envRegistry, makeEnv } from '../src/envs/index.js'
import { layoutFaults, pageErrors, screenshot } from './train-support/browser.js'
import { useDashboardSession } from './train-support/dashboard-session.js'
import { writeEvalEpisodes } from './train-support/eval-episodes-file.js'
import type { OperationsServer } from './train-support/operations-server.js'

let server: OperationsServer
let page: Page

useDashboardSession({
  path: '/ui/play.html',
  prepare: async (server) => {
    await writeEvalEpisodes({ server, name: 'newcomer', rows: 3, policies: ['phase-aware-rule'] })
  },
  opened: (session) => ({ server, page } = session),
})

/** The category choice and level that score 1 on this row, found on the env in process. */
function rightAnswer(resetParams: Parameters<ReturnType<typeof makeEnv>['reset']>[0]): { answer: string; level: string } {
  const env = makeEnv('grading-v1')
  const { observation } = env.reset(resetParams)
  const system = String((observation as { messages: { content: string }[] }).messages[0]?.content)
  const choices = [...system.matchAll(/^(\d+)\|/gm)].map((match) => match[1] as string)
  const levels = (JSON.parse(/Approved sensitivity levels:\n(.+)\n/.exec(system)?.[1] ?? '[]') as string[][]).map(
    ([code]) => code,
  )
  for (const answer of choices) {
    for (const level of levels) {
      env.reset(resetParams)
      const content = JSON.stringify({ answer, level })
      if (env.step({ name: 'final_response', arguments: { content } }).reward === 1) return { answer, level: level as string }
    }
  }
  throw new Error('no answer scores 1')
}

describe('dashboard for a newcomer', () => {
  it('plays grading-v1 to its end by clicking; rewards equal the env’s', async () => {
    await page.waitForSelector('#env option[value="grading-v1"]', { state: 'attached' })
    await page.selectOption('#env', 'grading-v1')
    await page.waitForSelector('#row option[value="0"]', { state: 'attached' })
    const dataset = envRegistry.get('grading-v1').dataset
    const { prompt: _prompt, ...row } = (dataset?.rows('train')[0] ?? {}) as Record<string, unknown>
    const resetParams = dataset?.toResetParams(row as never) ?? {}
    await page.click('[data-testid=start]')
    await page.waitForSelector('[data-testid=grading-field]')
    const metadata = (row as { extra_info: { metadata: Record<string, string> } }).extra_info.metadata
    expect(await page.textContent('[data-testid=grading-field]')).toContain(metadata.field_name)
    expect(await page.locator('[data-testid=grading-levels] tbody tr').count()).toBe(4)
    expect(await page.locator('[data-testid=observation-json]').count()).toBe(0)

    const env = makeEnv('grading-v1')
    env.reset(resetParams)
    // A lookup: field and table names are pre-filled from the field; the default top_k applies.
    expect(await page.inputValue('[data-testid=tool-search_categories] input[name=field_name]')).toBe(metadata.field_name)
    await page.click('[data-testid=call-search_categories]')
    await page.waitForSelector('[data-testid=grading-candidates] tbody tr')
    const searched = env.step({
      name: 'search_categories',
      arguments: { field_name: metadata.field_name, table_name: metadata.table_name },
    } as ToolCall)
    const candidates = (searched.observation.result as { candidates: { choice_id: string }[] }).candidates
    expect(await page.locator('[data-testid=grading-candidates] tbody tr td:first-child').allTextContents()).toEqual(
      candidates.map((candidate) => candidate.choice_id),
    )
    // A list argument typed comma-separated.
    await page.fill(
      '[data-testid=tool-get_category_details] input[name=choice_ids]',
      `${candidates[0]?.choice_id}, ${candidates[1]?.choice_id}`,
    )
    await page.click('[data-testid=call-get_category_details]')
    await page.waitForSelector('[data-testid=grading-categories] tbody tr:nth-child(2)')
    env.step({ name: 'get_category_details', arguments: { choice_ids: [candidates[0]?.choice_id, candidates[1]?.choice_id] } })

    const { answer, level } = rightAnswer(resetParams)
    await page.selectOption('[data-testid=answer-choice]', answer)
    await page.selectOption('[data-testid=answer-level]', level)
    await page.click('[data-testid=call-final_response]')
    await page.waitForSelector('[data-testid=grading-final]')
    const final = env.step({ name: 'final_response', arguments: { content: JSON.stringify({ answer, level }) } })
    expect(final.reward).toBe(1)
    expect(await page.textContent('[data-testid=history] li:nth-child(3)')).toBe(
      `final_response(${JSON.stringify({ content: JSON.stringify({ answer, level }) })}) → reward 1, total 1 · correct · ${final.info.terminal_reason ?? 'done'}`,
    )
    expect(await page.getAttribute('[data-testid=history] li:nth-child(3)', 'class')).toBe('good')
    expect(await page.textContent('[data-testid=reward]')).toContain('episode over')
    expect(await page.textContent('[data-testid=grading-final]')).toBe(
      `answer ${answer} at ${level} · category correct · level correct · reward 1`,
    )
    expect(await page.isDisabled('[data-testid=call-final_response]')).toBe(true)
    expect(await page.isDisabled('[data-testid=call-search_categories]')).toBe(true)
    expect(await layoutFaults(page)).toEqual([])
    const shot = await screenshot(page, 'play-grading-finished')
    expect(shot.width).toBe(1280)
    expect(pageErrors(page)).toEqual([])
  })

  it('switching env clears the old episode', async () => {
    await page.selectOption('#env', 'releaseops-v3')
    // The v3 rows are in once its families are offered (grading rows have none).
    await page.waitForSelector('#family option:nth-child(2)', { state: 'attached' })
    expect(await page.locator('[data-testid=history] li').count()).toBe(0)
    expect(await page.textContent('[data-testid=observation]')).toBe('')
    expect(await page.textContent('[data-testid=reward]')).toBe('')
    expect(await page.locator('[data-testid=tool-final_response]').count()).toBe(0)
    expect(await page.isDisabled('[data-testid=call-hold_release]')).toBe(true)
  })

  it('shows a refused block (accepted: false) as a failure, and no table is cut off at 1280 px', async () => {
    await page.click('[data-testid=start]')
    await page.waitForSelector('[data-testid=proposals] tbody tr')
    const proposal = await page.inputValue('[data-testid=tool-block_proposal] input[name=proposal_id]')
    expect(proposal).not.toBe('')
    await page.click('[data-testid=call-block_proposal]')
    await page.waitForSelector('[data-testid=history] li')
    const line = page.locator('[data-testid=history] li').first()
    expect(await line.getAttribute('class')).toBe('bad')
    expect(await line.textContent()).toContain('rejected: no_evidence_cited')
    expect(await page.getAttribute('#message .notice', 'class')).toBe('notice error')
    expect(await page.textContent('#message')).toBe('block_proposal rejected: no_evidence_cited (6 h lost).')
    const color = await page.evaluate(`getComputedStyle(document.querySelector('[data-testid=history] li')).color`)
    expect(color).toBe('rgb(185, 28, 28)') // --bad
    expect(await layoutFaults(page)).toEqual([])
    await screenshot(page, 'play-v3-rejected-block')
  })

  it('Replay at 1280 px: the episode list shows its Replay buttons', async () => {
    await page.goto(`${server.url}/ui/replay.html`)
    await page.waitForSelector('#file option[value="evals/newcomer/episodes.jsonl"]', { state: 'attached' })
    await page.selectOption('#file', 'evals/newcomer/episodes.jsonl')
    await page.click('[data-testid=load]')
    await page.waitForSelector('[data-testid=replay-1]')
    await page.click('[data-testid=replay-1]')
    await page.waitForSelector('[data-testid=frame-0]')
    expect(await layoutFaults(page)).toEqual([])
    await screenshot(page, 'replay-1280')
  })

  it('Eval: "Eval job started." is replaced when the job ends', async () => {
    await page.goto(`${server.url}/ui/eval.html`)
    await page.waitForSelector('#policies input[name=policy]', { state: 'attached' })
    await page.fill('#rows', '2')
    await page.click('[data-testid=run]')
    await page.waitForSelector('#message .notice.ok, #message .notice.error', { timeout: 30_000 })
    expect(await page.textContent('#message')).toMatch(/^Eval job \S+ succeeded/)
    expect(await page.textContent('#message')).not.toContain('started')
    expect(await layoutFaults(page)).toEqual([])
  })
})
