/**
 * Byte compatibility with the original pipeline: prompts, tool results, legacy rows, ids and audit keys
 * computed by an independent Python peer (__fixtures__/make-grading-goldens.py, CPython's NFKC, casefold,
 * `\s`, json.dumps and uuid5) must equal ours byte for byte.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { pythonDumpsUnicode } from '../../core/python/python-json.js'
import { collapseWhitespace, normalizeKeyText, pythonCasefold, pythonStrip } from '../../core/python/python-text.js'
import { parseCategoryCorpus } from './assets/category-corpus.js'
import { parseGradingConfig } from './assets/grading-config.js'
import { parseLeafRegistry } from './assets/leaf-registry.js'
import { parseTaskConfig } from './assets/task-config.js'
import { createGradingTask } from './grading-task.js'
import { LegacyPromptBuilder } from './legacy/legacy-prompts.js'
import { buildNativeUserPrompt } from './native-prompt.js'
import { stableRecordId } from './stable-record-id.js'
import { lexicalFeatures } from './text/lexical-features.js'

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8'))
const input = fixture('grading-golden-input.json')
const goldens = fixture('grading-goldens.json')

const demo = createGradingTask({
  registry: parseLeafRegistry(input.demo.registry),
  corpus: parseCategoryCorpus(input.demo.corpus),
  grading: parseGradingConfig(input.demo.grading),
  taskConfig: parseTaskConfig(input.demo.task),
})
const tricky = createGradingTask({
  registry: parseLeafRegistry(input.tricky.registry),
  corpus: parseCategoryCorpus(input.tricky.corpus),
  grading: parseGradingConfig(input.demo.grading),
})
const ok = <T>(outcome: { ok: true; result: T } | { ok: false; error: unknown }): T => {
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.error))
  return outcome.result
}
const clean = (value: string) => collapseWhitespace(pythonStrip(value))

describe('grading goldens (Python peer)', () => {
  it('native-v2 system prompt is byte-identical', () => {
    expect(demo.systemPrompt).toBe(goldens.demo.system)
  })

  it('user prompts, stable ids and audit keys are byte-identical for 80 records', () => {
    input.records.forEach((record: Record<string, string>, index: number) => {
      const golden = goldens.demo.records[index]
      const metadata = Object.fromEntries(Object.entries(record).map(([key, value]) => [key, clean(String(value))]))
      expect(buildNativeUserPrompt(metadata)).toBe(golden.user)
      expect(stableRecordId('steel_demo', metadata)).toBe(golden.source_id)
      const key = `${normalizeKeyText(metadata.field_name as string)}\u001f${normalizeKeyText(metadata.table_name as string)}`
      const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex')
      expect([sha([key, 'a'.repeat(64), 'b'.repeat(64)].join('\0')), sha(`${record.category_id}\0${record.level}`)]).toEqual(
        golden.audit,
      )
    })
  })

  it('legacy stage1/stage2 rows and candidate permutations are byte-identical', () => {
    const builder = new LegacyPromptBuilder(demo)
    let checked = 0
    input.records.forEach((record: Record<string, string>, index: number) => {
      const golden = goldens.demo.records[index].legacy
      if (!golden) return
      const metadata = Object.fromEntries(Object.entries(record).map(([key, value]) => [key, clean(String(value))]))
      const row = builder.build({
        sourceId: goldens.demo.records[index].source_id,
        metadata,
        groundTruth: record.category_id as string,
        level: record.level as string,
      })
      expect(row.candidates).toEqual(golden.candidates)
      expect(row.stage1).toEqual(golden.stage1)
      expect(row.stage2).toEqual(golden.stage2)
      checked++
    })
    expect(checked).toBe(12)
  })

  it('search, scoped search, details, examples and browse results are byte-identical', () => {
    const toolbox = demo.toolbox
    input.queries.forEach(([field, table]: [string, string], index: number) => {
      expect(pythonDumpsUnicode(ok(toolbox.search({ fieldName: field, tableName: table })))).toBe(goldens.demo.searches[index])
    })
    const scopes = toolbox.scopeKeys()
    let position = 0
    for (const [field, table] of input.queries.slice(0, 10)) {
      for (const scope of scopes) {
        expect(pythonDumpsUnicode(ok(toolbox.search({ fieldName: field, tableName: table, scope })))).toBe(
          goldens.demo.scoped_searches[position++],
        )
      }
    }
    expect(pythonDumpsUnicode(ok(toolbox.details(['1', '32', '17', '5', '2'])))).toBe(goldens.demo.details)
    expect(pythonDumpsUnicode(ok(toolbox.examples(['3', '12'], 2)))).toBe(goldens.demo.examples)
    expect(pythonDumpsUnicode(ok(toolbox.browse()))).toBe(goldens.demo.browse)
  })

  it('repeated leaf names, id redaction, long summaries and path-less scopes match', () => {
    expect(tricky.choices.choices.map((choice) => choice.displayName)).toEqual(goldens.tricky.display_names)
    input.queries.slice(60).forEach(([field, table]: [string, string], index: number) => {
      expect(pythonDumpsUnicode(ok(tricky.toolbox.search({ fieldName: field, tableName: table })))).toBe(
        goldens.tricky.searches[index],
      )
    })
    tricky.toolbox.scopeKeys().forEach((scope, index) => {
      expect(pythonDumpsUnicode(ok(tricky.toolbox.search({ fieldName: '账户', tableName: '', scope })))).toBe(
        goldens.tricky.scoped_searches[index],
      )
    })
    expect(pythonDumpsUnicode(ok(tricky.toolbox.details(['1', '2', '3', '6'])))).toBe(goldens.tricky.details)
    expect(pythonDumpsUnicode(ok(tricky.toolbox.examples(['3', '4'], 5)))).toBe(goldens.tricky.examples)
    expect(pythonDumpsUnicode(ok(tricky.toolbox.browse()))).toBe(goldens.tricky.browse)
  })

  it('casefold, key normalisation and lexical features follow CPython', () => {
    for (const [text, casefolded, normalized, features] of goldens.casefold) {
      expect(pythonCasefold(text)).toBe(casefolded)
      expect(normalizeKeyText(text)).toBe(normalized)
      expect([...lexicalFeatures(text)].sort()).toEqual([...features].sort())
    }
  })
})
