/**
 * Issue 24, item 6: the audit the runbook runs (`audit prompt-conflicts --split train`) catches a conflict
 * wherever it lies. On the hospital domain, one field of a table and its ODS copy, both dealt to test, get
 * two levels (L3 in production, L2 in the copy): the runbook's audit fails and names both records by id
 * and spreadsheet row.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { hospitalDataset, hospitalRunbookVariables } from './support/hospital-runbook.js'
import { temporaryDirectory } from './support/release-fixture.js'
import type { CliResult } from './support/run-cli.js'
import { runCliInProcess } from './support/run-cli-in-process.js'
import { runbookCommands } from './support/runbook-commands.js'

const dataset = hospitalDataset
const run = join(temporaryDirectory('audit-every-split'), 'run')
const variables = hospitalRunbookVariables(run)
const canonicalPath = join(run, 'canonical', dataset, 'all.json')
const reportPath = join(run, 'audits', `${dataset}.prompt.json`)

interface Row {
  id: string
  split: string | null
  resolution_status: string
  data_level: string
  metadata: { database_name: string; table_name: string; field_name: string }
  provenance: { source_file: string; sheet: string; row: number }
}

// Section 1 of the runbook, verbatim: preprocess, canonical build, split, audit --split train.
const [preprocess, build, split, audit] = runbookCommands(variables)
  .filter(({ section }) => section === '1')
  .map(({ args }) => args)
let passing: CliResult
let failing: CliResult
let prod: Row
let ods: Row

beforeAll(async () => {
  expect(audit).toContain('--split')
  expect(audit?.[audit.indexOf('--split') + 1]).toBe('train')
  for (const args of [preprocess, build, split]) expect((await runCliInProcess(args as string[])).status).toBe(0)
  passing = await runCliInProcess(audit as string[])
  // Two resolved records of one prompt key (a table and its copy in another database), both in test.
  const text = readFileSync(canonicalPath, 'utf8')
  const rows = text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line.replace(/,$/, '')) as Row)
  const key = (row: Row) => `${row.metadata.field_name}\u001f${row.metadata.table_name}`
  const inTest = rows.filter((row) => row.split === 'test' && row.resolution_status === 'resolved')
  const pair = inTest.flatMap((row) => {
    const copy = inTest.find((other) => other !== row && key(other) === key(row) && other.data_level === row.data_level)
    return copy ? [[row, copy] as const] : []
  })[0]
  if (!pair) throw new Error('the hospital fixture has no table copied across databases in test')
  ;[prod, ods] = pair
  const other = ods.data_level === 'L2' ? 'L3' : 'L2'
  const relabelled = text
    .split('\n')
    .map((line) =>
      line.includes(`"id":"${ods.id}"`) ? line.replace(`"data_level":"${ods.data_level}"`, `"data_level":"${other}"`) : line,
    )
    .join('\n')
  expect(relabelled).not.toBe(text)
  writeFileSync(canonicalPath, relabelled)
  failing = await runCliInProcess([...(audit as string[]), '--overwrite'])
}, 120_000)

describe("the runbook's audit covers every split", () => {
  it('passes the fixture as built', () => {
    expect(passing.status, passing.stderr).toBe(0)
  })

  it('fails on a conflict whose two records are both in test, and names them by id and spreadsheet row', () => {
    expect(failing.status).toBe(1)
    const report = JSON.parse(readFileSync(reportPath, 'utf8'))
    const own = report.datasets[dataset]
    expect(report).toMatchObject({ status: 'failed', split: 'train', conflict_keys: 1 })
    expect(own.records_checked).toBeGreaterThan(own.records_audited)
    expect(own.conflicts).toHaveLength(1)
    const [conflict] = own.conflicts
    expect(conflict.splits).toEqual(['test'])
    const listed = new Map(conflict.records.map((item: { id: string }) => [item.id, item]))
    for (const row of [prod, ods]) {
      expect(listed.get(row.id)).toMatchObject({ split: 'test', provenance: row.provenance })
    }
    expect(prod.metadata.database_name).not.toBe(ods.metadata.database_name)
  })
})
