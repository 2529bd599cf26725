/**
 * The SFT release read back by independent readers, DuckDB (@duckdb/node-api) and pyarrow: nested types,
 * row counts, and the very bytes of the prompts (compared with an independent rebuild from the task).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoGradingTask } from '../src/envs/grading/demo/demo-task.js'
import { LegacyPromptBuilder } from '../src/envs/grading/legacy/legacy-prompts.js'
import { runDemoPipeline } from '../src/release/pipeline/run-pipeline.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

let release: string
let exportReport: { splits: Record<string, { rows: number; records: number }> }
let duck: Awaited<ReturnType<typeof DuckDBInstance.create>>
let connection: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>['connect']>>
const builder = new LegacyPromptBuilder(demoGradingTask())
const query = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson()

beforeAll(async () => {
  const out = join(temporaryDirectory('readers'), 'out')
  await runDemoPipeline({ out, rows: 400 })
  release = join(out, 'run/releases/sft-legacy/steel_demo')
  exportReport = JSON.parse(readFileSync(join(release, 'export_report.json'), 'utf8'))
  duck = await DuckDBInstance.create(':memory:')
  connection = await duck.connect()
})

afterAll(() => {
  connection?.closeSync()
  duck?.closeSync()
})

const expectedTypes = {
  messages: 'STRUCT("role" VARCHAR, "content" VARCHAR)[]',
  stage: 'VARCHAR',
  source_id: 'VARCHAR',
  metadata: 'STRUCT(field_name VARCHAR, table_name VARCHAR, field_description VARCHAR, table_description VARCHAR)',
  ground_truth: 'VARCHAR',
  candidates: 'VARCHAR[]',
  ground_truth_level: 'VARCHAR',
}

describe('DuckDB reads the legacy SFT release', () => {
  it('with the nested types and the row counts the export report states', async () => {
    for (const split of ['train', 'val', 'test']) {
      const file = join(release, `${split}.parquet`)
      const described = await query(`DESCRIBE SELECT * FROM read_parquet('${file}')`)
      expect(Object.fromEntries(described.map((row) => [row.column_name, row.column_type]))).toEqual(expectedTypes)
      const [counts] = await query(
        `SELECT count(*) AS rows, count(DISTINCT source_id) AS records, sum(CASE WHEN len(messages) = 3 AND messages[1].role = 'system' AND messages[2].role = 'user' AND messages[3].role = 'assistant' THEN 1 ELSE 0 END) AS well_formed, sum(CASE WHEN len(candidates) = 5 THEN 1 ELSE 0 END) AS five FROM read_parquet('${file}')`,
      )
      const expected = exportReport.splits[split] as { rows: number; records: number }
      expect(counts).toEqual({
        rows: String(expected.rows),
        records: String(expected.records),
        well_formed: String(expected.rows),
        five: String(expected.rows),
      })
    }
  })

  it('with message contents byte-identical to an independent rebuild of the prompts', async () => {
    const rows = await query(
      `SELECT stage, source_id, metadata, ground_truth, ground_truth_level, candidates, messages FROM read_parquet('${join(release, 'val.parquet')}') ORDER BY source_id, stage LIMIT 40`,
    )
    expect(rows.length).toBe(40)
    for (const row of rows) {
      const text = builder.build({
        sourceId: row.source_id as string,
        metadata: row.metadata as Record<string, string>,
        groundTruth: row.ground_truth as string,
        level: row.ground_truth_level as string,
      })
      const messages = row.messages as { role: string; content: string }[]
      expect(messages.map((message) => message.content)).toEqual(row.stage === 'stage1' ? text.stage1 : text.stage2)
      expect(row.candidates).toEqual(text.candidates)
    }
  })
})

describe('pyarrow reads the legacy SFT release', () => {
  it('with list<struct> messages, a metadata struct, string lists, BROTLI pages and the same contents', () => {
    const script = `
import json, sys
import pyarrow.parquet as pq
out = {}
for split in ("train", "val", "test"):
    path = f"{sys.argv[1]}/{split}.parquet"
    table = pq.read_table(path)
    meta = pq.ParquetFile(path).metadata
    out[split] = {
        "rows": table.num_rows,
        "schema": {field.name: str(field.type) for field in table.schema},
        "codecs": sorted({meta.row_group(0).column(i).compression for i in range(meta.num_columns)}),
        "first": table.slice(0, 2).to_pylist(),
    }
print(json.dumps(out, ensure_ascii=False))
`
    const result = spawnSync(testPython(), ['-c', script, release], { encoding: 'utf8' })
    expect(result.stderr).toBe('')
    const read = JSON.parse(result.stdout) as Record<
      string,
      { rows: number; schema: Record<string, string>; codecs: string[]; first: Record<string, unknown>[] }
    >
    for (const split of ['train', 'val', 'test']) {
      const entry = read[split]!
      expect(entry.rows).toBe(exportReport.splits[split]?.rows)
      expect(entry.codecs).toEqual(['BROTLI'])
      expect(entry.schema).toEqual({
        messages: 'list<element: struct<role: string, content: string>>',
        stage: 'string',
        source_id: 'string',
        metadata: 'struct<field_name: string, table_name: string, field_description: string, table_description: string>',
        ground_truth: 'string',
        candidates: 'list<element: string>',
        ground_truth_level: 'string',
      })
      const [stage1, stage2] = entry.first as {
        stage: string
        source_id: string
        metadata: Record<string, string>
        ground_truth: string
        ground_truth_level: string
        messages: { role: string; content: string }[]
      }[]
      expect([stage1?.stage, stage2?.stage, stage2?.source_id]).toEqual(['stage1', 'stage2', stage1?.source_id])
      const text = builder.build({
        sourceId: stage1?.source_id as string,
        metadata: stage1?.metadata as Record<string, string>,
        groundTruth: stage1?.ground_truth as string,
        level: stage1?.ground_truth_level as string,
      })
      expect(stage1?.messages).toEqual(
        ['system', 'user', 'assistant'].map((role, index) => ({ role, content: text.stage1[index] })),
      )
      expect(stage2?.messages.map((message) => message.content)).toEqual(text.stage2)
    }
  })
})
