/**
 * Issue 33, item 13: docs/bring-your-own-data.md, verbatim. Every line of its ```bash blocks runs as
 * written (variables set as the page sets them, `$HOME` a temporary folder): the example English
 * catalogue and standards go through `release init`, the standards build, the canonical stages, a
 * validated trajectory release and a validated RL release and its VeRL mixture — and no file is edited
 * by hand between the commands.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { type GuideStep, guideLines, runGuide } from './support/guide-commands.js'
import { temporaryDirectory } from './support/release-fixture.js'

const guide = 'docs/bring-your-own-data.md'
const home = temporaryDirectory('byod-guide')
const variables: Record<string, string> = { HOME: home }
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
let steps: GuideStep[]

beforeAll(async () => {
  steps = await runGuide(guide, variables)
}, 300_000)

describe('the bring-your-own-data guide, as written', () => {
  it('runs every command of the guide with exit 0', () => {
    const commands = guideLines(guide).filter((line) => !/^[A-Z_]+=/.test(line))
    expect(steps.filter(({ result }) => result.status !== 0).map(({ line, result }) => `${line}\n${result.stderr}`)).toEqual([])
    expect(steps.map(({ line }) => line)).toEqual(commands)
    expect(commands.filter((line) => line.startsWith('releaseops ')).length).toBe(13)
  })

  it('init asked for confirmations only: no problem, and the line needed no other file', () => {
    const { WORK: work, DATASET: dataset } = variables as { WORK: string; DATASET: string }
    const report = json(join(work, `init/${dataset}.init-report.json`))
    expect([report.status, report.problems]).toEqual(['proposed', []])
    const init = steps.find(({ line }) => line.startsWith('releaseops release init'))
    expect(init?.result.stderr.match(/^confirm\[/gm)?.length).toBe(report.confirm.length)
  })

  it('ends with a validated trajectory release and a validated RL release and VeRL mixture', () => {
    const { RUN: run, DATASET: dataset } = variables as { RUN: string; DATASET: string }
    expect(json(join(run, `releases/trajectory-${dataset}.validation.json`)).valid).toBe(true)
    expect(json(join(run, `releases/rl-${dataset}.validation.json`)).valid).toBe(true)
    expect(json(join(run, `releases/rl-${dataset}.cascade-validation.json`)).valid).toBe(true)
    const trajectory = json(join(run, `releases/trajectory/${dataset}/export_report.json`))
    expect(trajectory.label_gap_gate.status).toBe('passed')
    const rows = ['train', 'val', 'test'].map((split) => trajectory.splits[split].rows)
    expect(rows.every((count: number) => count > 0)).toBe(true)
  })
})
