/**
 * A trajectory release read by independent readers: pyarrow (and pandas with the pyarrow dtype backend,
 * as VeRL's multi-turn SFT dataset reads it), HF `datasets`, and DuckDB. Each sees the nested types we
 * declare, and every row, once null-padded struct keys are dropped, is exactly the row our reader returns
 * (same keys, same order, same values).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTrajectoryRows } from '../src/release/trajectories/read-trajectory-rows.js'
import { runTrajectoryExport } from '../src/release/trajectories/run-trajectory-export.js'
import { readSplit, type TrajectoryFixture, trajectoryFixture } from './release-trajectories-fixture.js'
import { testPython } from './support/python.js'
import { temporaryDirectory } from './support/release-fixture.js'

let fixture: TrajectoryFixture
let release: string
let work: string
let duck: Awaited<ReturnType<typeof DuckDBInstance.create>>
let connection: Awaited<ReturnType<Awaited<ReturnType<typeof DuckDBInstance.create>>['connect']>>
const splits = ['train', 'val', 'test'] as const
const query = async (sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJson()
const ours = (split: string) => readSplit(release, split, fixture.task).map((row) => JSON.stringify(row))

beforeAll(async () => {
  fixture = await trajectoryFixture({ rows: 200 })
  work = temporaryDirectory('trajectories-readers')
  release = join(work, 'release')
  await runTrajectoryExport({ ...fixture.taskOptions, canonical: fixture.canonical, outputDir: release, thinkSource: 'mock' })
  duck = await DuckDBInstance.create(':memory:')
  connection = await duck.connect()
})

afterAll(() => {
  connection?.closeSync()
  duck?.closeSync()
})

const dropNulls = `
def drop_nulls(value):
    if isinstance(value, dict):
        return {key: drop_nulls(item) for key, item in value.items() if item is not None}
    if isinstance(value, (list, tuple)):
        return [drop_nulls(item) for item in value]
    if hasattr(value, "tolist"):
        return drop_nulls(value.tolist())
    return value
`

function python(script: string, env: Record<string, string> = {}): string {
  const result = spawnSync(testPython(), ['-c', `${dropNulls}\n${script}`, release], {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 1 << 28,
  })
  if (result.status !== 0) throw new Error(result.stderr)
  return result.stdout
}

describe('pyarrow and pandas (as VeRL reads it)', () => {
  it('nested types: messages list<struct> with tool_calls and typed arguments, tools, enable_thinking', () => {
    const out = python(`
import json, sys
import pyarrow.parquet as pq
schema = pq.read_schema(f"{sys.argv[1]}/train.parquet")
message = schema.field("messages").type.value_type
call = message.field("tool_calls").type.value_type
arguments = call.field("function").type.field("arguments").type
print(json.dumps({
  "names": schema.names,
  "message": [f.name for f in message],
  "call": str(call),
  "arguments": {f.name: str(f.type) for f in arguments},
  "tools": str(schema.field("tools").type.value_type.field("function").type.field("name").type),
  "enable_thinking": str(schema.field("enable_thinking").type),
  "tool_calls": str(schema.field("tool_calls").type.value_type.field("name").type),
}))
`)
    expect(JSON.parse(out)).toEqual({
      names: [
        'messages',
        'tools',
        'enable_thinking',
        'stage',
        'trajectory_class',
        'trajectory_format',
        'source_id',
        'dataset',
        'metadata',
        'ground_truth',
        'ground_truth_level',
        'tool_calls',
        'think_source',
        'think_truncated',
        'think_discarded',
      ],
      message: ['role', 'content', 'reasoning_content', 'tool_calls', 'tool_call_id', 'name'],
      call: expect.stringMatching(/^struct<id: string, type: string, function: struct<name: string, arguments: struct</),
      arguments: {
        field_name: 'string',
        table_name: 'string',
        top_k: 'int64',
        scope: 'string',
        choice_ids: 'list<element: string>',
        limit: 'int64',
      },
      tools: 'string',
      enable_thinking: 'bool',
      tool_calls: 'string',
    })
  })

  it('every row, nulls dropped, equals our reader; pandas with the pyarrow backend gives the same messages and tools', () => {
    const out = python(`
import json, sys
import pyarrow.parquet as pq
import pandas as pd
out = {}
for split in ("train", "val", "test"):
    path = f"{sys.argv[1]}/{split}.parquet"
    rows = [drop_nulls(row) for row in pq.read_table(path).to_pylist()]
    frame = pd.read_parquet(path, dtype_backend="pyarrow")
    messages = [drop_nulls(value) for value in frame["messages"].tolist()]
    tools = [drop_nulls(value) for value in frame["tools"].tolist()]
    out[split] = {
        "rows": [json.dumps(row, ensure_ascii=False) for row in rows],
        "pandas_agrees": messages == [row["messages"] for row in rows] and tools == [row["tools"] for row in rows],
        "enable_thinking": sorted(set(frame["enable_thinking"].tolist())),
    }
print(json.dumps(out))
`)
    const read = JSON.parse(out) as Record<string, { rows: string[]; pandas_agrees: boolean; enable_thinking: boolean[] }>
    for (const split of splits) {
      const entry = read[split] as (typeof read)[string]
      const expected = ours(split)
      expect(entry.rows.length).toBe(expected.length)
      expect(entry.rows.map((row) => JSON.stringify(JSON.parse(row)))).toEqual(expected)
      expect(entry.pandas_agrees).toBe(true)
      expect(entry.enable_thinking).toEqual([true])
    }
  })
  it('Python agrees on the bytes: tool messages and answers are json.dumps(…, ensure_ascii=False), classes by the sha256 rule', () => {
    const out = python(`
import hashlib, json, sys
import pyarrow.parquet as pq
classes = ["direct", "single_tool", "multi_tool", "no_result"]
checked = {"rows": 0, "tool_messages": 0, "problems": []}
for split in ("train", "val", "test"):
    for row in pq.read_table(f"{sys.argv[1]}/{split}.parquet").to_pylist():
        checked["rows"] += 1
        expected = classes[int(hashlib.sha256(("tool-trajectory:" + row["source_id"]).encode()).hexdigest(), 16) % 4]
        if row["trajectory_class"] != expected:
            checked["problems"].append(("class", row["source_id"]))
        for message in row["messages"]:
            if message["role"] == "tool":
                checked["tool_messages"] += 1
                if json.dumps(json.loads(message["content"]), ensure_ascii=False) != message["content"]:
                    checked["problems"].append(("tool", row["source_id"]))
        answer = row["messages"][-1]["content"]
        if json.dumps(json.loads(answer), ensure_ascii=False) != answer or list(json.loads(answer)) != ["answer", "level"]:
            checked["problems"].append(("answer", row["source_id"]))
print(json.dumps(checked))
`)
    const checked = JSON.parse(out) as { rows: number; tool_messages: number; problems: unknown[] }
    expect(checked.problems).toEqual([])
    expect(checked.rows).toBe(splits.reduce((sum, split) => sum + ours(split).length, 0))
    expect(checked.tool_messages).toBeGreaterThan(checked.rows)
  })

  it('a file pyarrow writes from the release (its own encodings, SNAPPY) reads back through our reader unchanged', () => {
    const copy = join(work, 'pyarrow-val.parquet')
    python(`
import sys
import pyarrow.parquet as pq
pq.write_table(pq.read_table(f"{sys.argv[1]}/val.parquet"), "${copy}", compression="snappy")
`)
    const rows: string[] = []
    readTrajectoryRows({
      bytes: readFileSync(copy),
      metadataFields: fixture.task.taskConfig.metadata_fields,
      tools: fixture.tools,
      onRow: (row) => rows.push(JSON.stringify(row)),
      onError: (message) => {
        throw new Error(message)
      },
    })
    expect(rows).toEqual(ours('val'))
  })
})

describe('HF datasets', () => {
  it('loads every split with nested features and the same rows', () => {
    const out = python(
      `
import json, sys
from datasets import load_dataset
files = {split: f"{sys.argv[1]}/{split}.parquet" for split in ("train", "val", "test")}
loaded = load_dataset("parquet", data_files=files)
out = {}
for split in files:
    data = loaded[split]
    out[split] = {
        "rows": data.num_rows,
        "message_keys": list(data.features["messages"][0].keys()) if isinstance(data.features["messages"], list) else list(data.features["messages"].feature.keys()),
        "first": json.dumps(drop_nulls(data[0]), ensure_ascii=False),
        "last": json.dumps(drop_nulls(data[data.num_rows - 1]), ensure_ascii=False),
    }
print(json.dumps(out))
`,
      {
        HF_DATASETS_CACHE: join(work, 'hf-cache'),
        HF_HOME: join(work, 'hf-home'),
        HF_HUB_OFFLINE: '1',
        HF_DATASETS_OFFLINE: '1',
      },
    )
    const read = JSON.parse(out.trim().split('\n').at(-1) as string) as Record<
      string,
      { rows: number; message_keys: string[]; first: string; last: string }
    >
    for (const split of splits) {
      const entry = read[split] as (typeof read)[string]
      const expected = ours(split)
      expect(entry.rows).toBe(expected.length)
      expect(entry.message_keys).toEqual(['role', 'content', 'reasoning_content', 'tool_calls', 'tool_call_id', 'name'])
      expect(JSON.stringify(JSON.parse(entry.first))).toBe(expected[0])
      expect(JSON.stringify(JSON.parse(entry.last))).toBe(expected.at(-1))
    }
  })
})

describe('DuckDB', () => {
  it('reads the nested types and the per-class counts of the export report', async () => {
    const report = JSON.parse(readFileSync(join(release, 'export_report.json'), 'utf8'))
    for (const split of splits) {
      const file = join(release, `${split}.parquet`)
      const described = Object.fromEntries(
        (await query(`DESCRIBE SELECT * FROM read_parquet('${file}')`)).map((row) => [row.column_name, row.column_type]),
      )
      expect(described.messages).toBe(
        'STRUCT("role" VARCHAR, "content" VARCHAR, reasoning_content VARCHAR, tool_calls STRUCT(id VARCHAR, "type" VARCHAR, "function" STRUCT("name" VARCHAR, arguments STRUCT(field_name VARCHAR, table_name VARCHAR, top_k BIGINT, "scope" VARCHAR, choice_ids VARCHAR[], "limit" BIGINT)))[], tool_call_id VARCHAR, "name" VARCHAR)[]',
      )
      expect(described.enable_thinking).toBe('BOOLEAN')
      expect(described.metadata).toBe(
        'STRUCT(field_name VARCHAR, table_name VARCHAR, field_description VARCHAR, table_description VARCHAR)',
      )
      const counts = await query(
        `SELECT trajectory_class AS class, count(*) AS rows, sum(len(messages)) AS messages FROM read_parquet('${file}') GROUP BY 1 ORDER BY 1`,
      )
      const perClass = { direct: 3, single_tool: 5, multi_tool: 9, no_result: 7 } as Record<string, number>
      for (const row of counts) {
        expect(Number(row.rows)).toBe(report.splits[split].by_class[row.class as string])
        expect(Number(row.messages)).toBe(Number(row.rows) * (perClass[row.class as string] as number))
      }
      // Every search call carries the record's field and table names, read through the nested path.
      const [search] = await query(
        `SELECT count(*) AS calls, sum(CASE WHEN messages[3].tool_calls[1].function.arguments.field_name = metadata.field_name AND messages[3].tool_calls[1].function.arguments.table_name = metadata.table_name THEN 1 ELSE 0 END) AS matching FROM read_parquet('${file}') WHERE trajectory_class IN ('single_tool', 'multi_tool')`,
      )
      expect(search?.matching).toBe(search?.calls)
    }
  })
})
