import { describe, expect, it } from 'vitest'
import { normalizeKeyText } from '../../../core/python/python-text.js'
import { demoLeaves, placeholderLabel, unresolvableLabels } from './demo-taxonomy.js'
import { generateDemoSheet } from './generate-demo-rows.js'

const sheet = generateDemoSheet({ rows: 2000, seed: 42 })
const key = (cells: (string | number)[]) => `${normalizeKeyText(String(cells[4]))}\u001f${normalizeKeyText(String(cells[2]))}`

describe('demo sheet', () => {
  it('is a pure function of (rows, seed)', () => {
    expect(generateDemoSheet({ rows: 2000, seed: 42 })).toEqual(sheet)
    expect(JSON.stringify(generateDemoSheet({ rows: 2000, seed: 43 }).rows)).not.toBe(JSON.stringify(sheet.rows))
    expect(() => generateDemoSheet({ rows: 10, seed: 1 })).toThrow(RangeError)
  })

  it('has the requested size, 20–40 leaves, all four levels and every kind of difficulty', () => {
    expect(sheet.rows).toHaveLength(2000)
    expect(demoLeaves.length).toBeGreaterThanOrEqual(20)
    expect(demoLeaves.length).toBeLessThanOrEqual(40)
    expect(sheet.counts).toEqual({
      labeled: 1921,
      placeholder: 30,
      unresolvable: 20,
      unlabeled: 20,
      exact_duplicate: 6,
      conflict: 3,
    })
    const levels = new Set(sheet.rows.filter((row) => row.kind === 'labeled').map((row) => row.level))
    expect([...levels].sort()).toEqual(['L1', 'L2', 'L3', 'L4'])
    expect(new Set(sheet.rows.map((row) => row.categoryId).filter(Boolean)).size).toBe(demoLeaves.length)
  })

  it('labels match the taxonomy, written the ways annotators write them', () => {
    const forms = new Set<string>()
    for (const row of sheet.rows.filter((item) => item.kind === 'labeled')) {
      const leaf = demoLeaves.find((candidate) => candidate.code === row.categoryId)!
      expect(row.cells.slice(7, 10)).toEqual([...leaf.path])
      expect([leaf.name, `${leaf.name}（${leaf.code}）`]).toContain(row.cells[10])
      const cell = row.cells[11]!
      forms.add(typeof cell === 'number' ? 'number' : /^Level/.test(cell) ? 'Level' : /^l/.test(cell) ? 'lower' : 'L')
      expect(`L${String(cell).replace(/\D/g, '')}`).toBe(row.level)
    }
    expect([...forms].sort()).toEqual(['L', 'Level', 'lower', 'number'])
    expect(sheet.rows.filter((row) => row.kind === 'placeholder').every((row) => row.cells[10] === placeholderLabel)).toBe(true)
    expect(
      sheet.rows
        .filter((row) => row.kind === 'unresolvable')
        .every((row) => (unresolvableLabels as readonly string[]).includes(String(row.cells[10]))),
    ).toBe(true)
    expect(
      sheet.rows.filter((row) => row.kind === 'unlabeled').every((row) => row.cells.slice(7).every((cell) => cell === '')),
    ).toBe(true)
  })

  it('conflicting duplicates share an audit key with another row but not its target', () => {
    const targets = new Map<string, Set<string>>()
    for (const row of sheet.rows.filter((item) => item.kind === 'labeled' || item.kind === 'conflict')) {
      const set = targets.get(key(row.cells)) ?? new Set<string>()
      set.add(`${row.categoryId}/${row.level}`)
      targets.set(key(row.cells), set)
    }
    const conflicted = [...targets.values()].filter((set) => set.size > 1)
    expect(conflicted).toHaveLength(sheet.counts.conflict)
  })

  it('is hard: shared field names across categories, misleading and English descriptions, odd spellings', () => {
    const labeled = sheet.rows.filter((row) => row.kind === 'labeled')
    const categoriesByField = new Map<string, Set<string>>()
    for (const row of labeled) {
      const name = String(row.cells[4]).trim()
      categoriesByField.set(name, (categoriesByField.get(name) ?? new Set()).add(row.categoryId as string))
    }
    expect([...categoriesByField.values()].filter((set) => set.size > 1).length).toBeGreaterThan(3)
    const english = labeled.filter((row) => /^[\x20-\x7e]+$/.test(String(row.cells[5])) && String(row.cells[5]).length > 0)
    expect(english.length / labeled.length).toBeGreaterThan(0.1)
    const misleading = labeled.filter((row) => {
      const leaf = demoLeaves.find((candidate) => candidate.code === row.categoryId)!
      return leaf.fields.some((field) => field[5] === row.cells[5])
    })
    expect(misleading.length).toBeGreaterThan(50)
    expect(labeled.some((row) => /^[A-Z0-9_]+$/.test(String(row.cells[4])))).toBe(true)
    expect(labeled.some((row) => /[\uff01-\uff5e]/.test(String(row.cells[4])))).toBe(true)
  })
})
