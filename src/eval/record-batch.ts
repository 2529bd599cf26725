/**
 * @module eval: episode records packed column-wise for worker → main messages. Structured-cloning
 * 100k small objects costs the main thread more than running the episodes; typed arrays transfer
 * for free. Batches whose records do not share one shape fall back to JSON text.
 */

import type { EpisodeEnd } from '../agent/run-policy-episode.js'
import type { JsonValue } from '../core/json/json-value.js'
import type { EpisodeRecord } from './episode-record.js'

interface Dictionary {
  codes: Int32Array
  /** JSON text of each distinct value. */
  values: string[]
}

export type RecordBatch =
  | { kind: 'json'; json: string }
  | {
      kind: 'columns'
      index: Int32Array
      rowIndex: Int32Array
      stepCount: Int32Array
      reward: Float64Array
      /** bit 0 terminated, bit 1 truncated */
      flags: Uint8Array
      policy: Dictionary
      end: Dictionary
      terminalReason: Dictionary
      rateKeys: string[]
      rates: Uint8Array
      valueKeys: string[]
      values: Float64Array
      metricKeys: string[]
      metrics: Float64Array
      steps: string[] | null
    }

function dictionary(items: readonly JsonValue[]): Dictionary {
  const lookup = new Map<string, number>()
  const codes = new Int32Array(items.length)
  items.forEach((item, position) => {
    const text = JSON.stringify(item)
    let code = lookup.get(text)
    if (code === undefined) {
      code = lookup.size
      lookup.set(text, code)
    }
    codes[position] = code
  })
  return { codes, values: [...lookup.keys()] }
}

function sameKeys(keys: readonly string[], object: object): boolean {
  const other = Object.keys(object)
  return other.length === keys.length && other.every((key, position) => key === keys[position])
}

function numericRecord(value: unknown): value is Record<string, number> {
  return (
    !!value &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'number')
  )
}

export function encodeRecords(records: readonly EpisodeRecord[]): RecordBatch {
  const first = records[0]
  const rateKeys = first ? Object.keys(first.outcome.rates) : []
  const valueKeys = first ? Object.keys(first.outcome.values) : []
  const metricKeys = first && numericRecord(first.metrics) ? Object.keys(first.metrics) : []
  const uniform = records.every(
    (record) =>
      sameKeys(rateKeys, record.outcome.rates) &&
      sameKeys(valueKeys, record.outcome.values) &&
      numericRecord(record.metrics) &&
      sameKeys(metricKeys, record.metrics),
  )
  if (!uniform || !first) return { kind: 'json', json: JSON.stringify(records) }
  const count = records.length
  const batch = {
    kind: 'columns' as const,
    index: new Int32Array(count),
    rowIndex: new Int32Array(count),
    stepCount: new Int32Array(count),
    reward: new Float64Array(count),
    flags: new Uint8Array(count),
    policy: dictionary(records.map((record) => record.policy)),
    end: dictionary(records.map((record) => record.end)),
    terminalReason: dictionary(records.map((record) => record.terminal_reason)),
    rateKeys,
    rates: new Uint8Array(count * rateKeys.length),
    valueKeys,
    values: new Float64Array(count * valueKeys.length),
    metricKeys,
    metrics: new Float64Array(count * metricKeys.length),
    steps: first.steps ? records.map((record) => JSON.stringify(record.steps ?? [])) : null,
  }
  records.forEach((record, position) => {
    batch.index[position] = record.index
    batch.rowIndex[position] = record.rowIndex
    batch.stepCount[position] = record.step_count
    batch.reward[position] = record.reward
    batch.flags[position] = (record.terminated ? 1 : 0) | (record.truncated ? 2 : 0)
    rateKeys.forEach((key, column) => {
      batch.rates[position * rateKeys.length + column] = record.outcome.rates[key] ? 1 : 0
    })
    valueKeys.forEach((key, column) => {
      batch.values[position * valueKeys.length + column] = record.outcome.values[key] as number
    })
    const metrics = record.metrics as Record<string, number>
    metricKeys.forEach((key, column) => {
      batch.metrics[position * metricKeys.length + column] = metrics[key] as number
    })
  })
  return batch
}

/** The buffers to transfer (not copy) with a batch. */
export function transferables(batch: RecordBatch): ArrayBuffer[] {
  if (batch.kind === 'json') return []
  return [batch.index, batch.rowIndex, batch.stepCount, batch.reward, batch.flags, batch.rates, batch.values, batch.metrics].map(
    (array) => array.buffer as ArrayBuffer,
  )
}

/** Rebuilds records; `row` is left empty for the caller to fill from its own rows. */
export function decodeRecords(batch: RecordBatch): EpisodeRecord[] {
  if (batch.kind === 'json') return JSON.parse(batch.json) as EpisodeRecord[]
  const parse = (dictionary: Dictionary) => dictionary.values.map((text) => JSON.parse(text) as JsonValue)
  const policies = parse(batch.policy)
  const ends = parse(batch.end)
  const reasons = parse(batch.terminalReason)
  const records: EpisodeRecord[] = new Array(batch.index.length)
  for (let position = 0; position < batch.index.length; position++) {
    const rates: Record<string, boolean> = {}
    batch.rateKeys.forEach((key, column) => {
      rates[key] = batch.rates[position * batch.rateKeys.length + column] === 1
    })
    const values: Record<string, number> = {}
    batch.valueKeys.forEach((key, column) => {
      values[key] = batch.values[position * batch.valueKeys.length + column] as number
    })
    const metrics: Record<string, number> = {}
    batch.metricKeys.forEach((key, column) => {
      metrics[key] = batch.metrics[position * batch.metricKeys.length + column] as number
    })
    const flags = batch.flags[position] as number
    records[position] = {
      index: batch.index[position] as number,
      rowIndex: batch.rowIndex[position] as number,
      policy: policies[batch.policy.codes[position] as number] as string,
      row: {},
      reward: batch.reward[position] as number,
      terminal_reason: reasons[batch.terminalReason.codes[position] as number] ?? null,
      terminated: (flags & 1) === 1,
      truncated: (flags & 2) === 2,
      end: ends[batch.end.codes[position] as number] as EpisodeEnd,
      step_count: batch.stepCount[position] as number,
      metrics,
      outcome: { rates, values },
      ...(batch.steps ? { steps: JSON.parse(batch.steps[position] as string) } : {}),
    }
  }
  return records
}
