/**
 * Issue 16: the runbook's sections 1–5, flags exactly as written there (test/fixtures/runbook-sections-1-5.txt),
 * on a second domain the line was not built for: a hospital catalogue written by openpyxl (path ids, the
 * leaf name 基本信息 under two parents, codes in the corpus and trailing codes in the labels, ODS/DWD copies
 * of tables, unlabeled rows and a placeholder label). Every command exits 0, and every labelled record is
 * in a split or counted under a named reason.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { hospitalDataset, hospitalRunbookVariables } from './support/hospital-runbook.js'
import { temporaryDirectory } from './support/release-fixture.js'
import { runCliInProcess } from './support/run-cli-in-process.js'
import { type RunbookResult, runRunbook } from './support/run-runbook.js'

const dataset = hospitalDataset
const run = join(temporaryDirectory('runbook'), 'run')
const variables = hospitalRunbookVariables(run)
const json = (path: string) => JSON.parse(readFileSync(path, 'utf8'))
const lines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line.replace(/,$/, '')))

const results: RunbookResult[] = []

beforeAll(async () => {
  results.push(...(await runRunbook(variables)))
}, 120_000)

describe('the runbook, verbatim, on the hospital domain', () => {
  it('runs every command of sections 1–5 with exit code 0', () => {
    const failed = results.filter(({ result }) => result.status !== 0)
    expect(failed.map(({ command, result }) => `${command}: ${result.stderr}`)).toEqual([])
    expect(results.length).toBe(15)
  })

  it('reads the openpyxl workbook by its sheet name (fix 4) and strips the trailing codes (fix 2)', () => {
    const records = json(join(run, 'processed', dataset, 'all.json')) as {
      provenance: { sheet: string }
      classification: { level_3: string }
      label_notes?: unknown[]
    }[]
    expect(new Set(records.map((record) => record.provenance.sheet))).toEqual(new Set(['字段清单']))
    expect(records.some((record) => /（[A-Z]\d/.test(record.classification.level_3))).toBe(false)
    expect(records.filter((record) => record.label_notes).length).toBeGreaterThan(10)
  })

  it('builds path ids although 基本信息 names two leaves with different codes (fix 1)', () => {
    const resolved = lines(variables.CANONICAL).filter((record) => record.target?.leaf_name === '基本信息')
    expect(new Set(resolved.map((record) => record.target.category_id))).toEqual(
      new Set([`${dataset}:患者数据域.患者身份.基本信息`, `${dataset}:人员数据域.员工档案.基本信息`]),
    )
  })

  it('every labelled record is in a split or counted under a named reason', () => {
    const canonical = lines(variables.CANONICAL) as {
      id: string
      label_status: string
      resolution_status: string
      split: string | null
      split_exclusion_reason: string | null
    }[]
    const resolution = json(join(run, 'canonical', dataset, 'resolution_report.json'))
    const labelled = canonical.filter((record) => record.label_status === 'labeled')
    const outside = labelled.filter((record) => record.split === null)
    const counted: Record<string, number> = {}
    for (const record of outside) {
      expect(record.split_exclusion_reason).toBe(`resolution_status:${record.resolution_status}`)
      counted[record.resolution_status] = (counted[record.resolution_status] ?? 0) + 1
    }
    // The only labelled records outside the splits carry a placeholder label, counted as such.
    expect(counted).toEqual({ placeholder: 2 })
    expect(resolution.labels).toEqual({ lost: 0, lost_by_reason: {}, unusable_by_reason: { placeholder: 2, unlabeled: 3 } })
    const build = results.find(({ command }) => command === 'release canonical build')?.result
    expect(build?.stderr).toContain('placeholder 2')
    // The releases hold exactly the split records.
    const sizes = { train: 0, val: 0, test: 0 } as Record<string, number>
    for (const record of labelled) if (record.split) sizes[record.split] = (sizes[record.split] ?? 0) + 1
    expect(sizes.train! + sizes.val! + sizes.test!).toBe(labelled.length - 2)
    const trajectories = json(join(variables.TRAJECTORY_RELEASE, 'export_report.json'))
    for (const split of ['train', 'val', 'test']) expect(trajectories.splits[split].rows).toBe(sizes[split])
    const sft = json(join(run, 'releases/sft-legacy/source', dataset, 'export_report.json'))
    for (const split of ['train', 'val', 'test']) expect(sft.splits[split].records).toBe(sizes[split])
  })

  it('copies of a table in ODS/DWD never straddle a split, and the audit passed (fix 5)', () => {
    const canonical = lines(variables.CANONICAL) as {
      split: string | null
      metadata: { table_name: string; field_name: string }
    }[]
    const splitsOf = new Map<string, Set<string>>()
    for (const record of canonical) {
      if (!record.split) continue
      const key = `${record.metadata.field_name}/${record.metadata.table_name}`
      splitsOf.set(key, (splitsOf.get(key) ?? new Set()).add(record.split))
    }
    expect([...splitsOf.values()].filter((splits) => splits.size > 1)).toEqual([])
    expect(json(join(run, 'audits', `${dataset}.prompt.json`))).toMatchObject({
      status: 'passed',
      conflict_keys: 0,
      cross_split_keys: 0,
    })
  })

  it('validators accept the validation.json the runbook writes into a release (fix 3)', async () => {
    const validate = (extra: string[]) =>
      runCliInProcess([
        'release',
        'trajectories',
        'validate',
        '--dataset-dir',
        variables.TRAJECTORY_RELEASE,
        '--registry',
        variables.REGISTRY,
        '--corpus',
        variables.CORPUS,
        '--task-config',
        variables.TASK_CONFIG,
        '--grading-config',
        variables.GRADING_CONFIG,
        ...extra,
      ])
    const again = await validate(['--report', join(variables.TRAJECTORY_RELEASE, 'validation.json')])
    expect(again.status).toBe(0)
    const twice = await validate([])
    expect([twice.status, JSON.parse(twice.stdout.trim().split('\n').at(-1) as string).report_errors]).toEqual([0, []])
    expect(json(join(run, 'releases/sft-legacy/source', dataset, 'validation.json')).valid).toBe(true)
  })
})
