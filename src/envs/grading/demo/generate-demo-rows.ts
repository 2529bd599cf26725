/**
 * @module envs/grading: the synthetic steel-maker spreadsheet, generated deterministically from a seed.
 * Realistic difficulty on purpose: near-duplicate names across categories, misleading and English
 * descriptions, Oracle-style and full-width names, partition tables, placeholder and unresolvable labels,
 * unlabeled rows, exact duplicates (dropped by preprocess) and a few conflicting duplicates in another
 * database (which only the prompt-conflict audit catches).
 */
import { PythonRandom } from '../../../core/python/python-random.js'
import { collapseWhitespace, pythonStrip } from '../../../core/python/python-text.js'
import type { DemoField, DemoLeaf, DemoTable } from './demo-leaf.js'
import {
  demoDatabases,
  demoHeaders,
  demoLeaves,
  placeholderLabel,
  unresolvableLabels,
  warehouseDatabases,
} from './demo-taxonomy.js'

export type DemoCell = string | number
export type DemoRowKind = 'labeled' | 'placeholder' | 'unresolvable' | 'unlabeled' | 'exact_duplicate' | 'conflict'

export interface DemoRow {
  cells: DemoCell[]
  kind: DemoRowKind
  /** The true labels of a labeled (or conflicting) row. */
  categoryId?: string
  level?: string
}

export interface DemoSheet {
  header: string[]
  rows: DemoRow[]
  counts: Record<DemoRowKind, number>
}

interface Draw {
  leaf: DemoLeaf
  field: DemoField
  table: DemoTable
  database: string
  tableName: string
  fieldName: string
}

const cleaned = (value: DemoCell) => collapseWhitespace(pythonStrip(String(value)))
const fullWidth = (text: string) => text.replace(/[!-~]/g, (character) => String.fromCharCode(character.charCodeAt(0) + 0xfee0))

class DemoGenerator {
  private readonly rng: PythonRandom
  private readonly weights: number[]
  private readonly used = new Set<string>()
  private readonly totalWeight: number

  constructor(seed: number) {
    this.rng = new PythonRandom(seed)
    this.weights = demoLeaves.map((leaf) => leaf.weight)
    this.totalWeight = this.weights.reduce((sum, weight) => sum + weight, 0)
  }

  private pick<T>(items: readonly T[]): T {
    return this.rng.choice(items)
  }

  private leaf(): DemoLeaf {
    let remaining = this.rng.random() * this.totalWeight
    for (const [index, leaf] of demoLeaves.entries()) {
      remaining -= this.weights[index] as number
      if (remaining < 0) return leaf
    }
    return demoLeaves.at(-1) as DemoLeaf
  }

  private identity(database: string, table: string, field: string): string {
    return `${cleaned(database)}\u001f${cleaned(table)}\u001f${cleaned(field)}`
  }

  /** A fresh (database, table, field) combination. */
  draw(): Draw {
    for (let attempt = 0; ; attempt++) {
      const leaf = this.leaf()
      const field = this.pick(leaf.fields)
      const table = this.pick(leaf.tables)
      const database = this.rng.random() < 0.6 ? table[3] : this.pick(warehouseDatabases)
      let tableName = table[0]
      if (this.rng.random() < 0.45 || attempt > 8) {
        tableName = `${tableName}_${this.rng.randint(2019, 2026)}${String(this.rng.randint(1, 12)).padStart(2, '0')}`
      }
      const variant = this.rng.random()
      let fieldName = field[0]
      if (variant < 0.08) fieldName = fieldName.toUpperCase()
      else if (variant < 0.14) fieldName = `${fieldName}_bak`
      else if (variant < 0.22) fieldName = `${fieldName}_${this.rng.randint(1, 6)}`
      else if (variant < 0.225) fieldName = fullWidth(fieldName)
      const key = this.identity(database, tableName, fieldName)
      if (this.used.has(key) && attempt < 200) continue
      this.used.add(key)
      return { leaf, field, table, database, tableName, fieldName }
    }
  }

  cells(draw: Draw, labels: { leaf?: DemoLeaf; level4?: string; level?: DemoCell; unlabeled?: boolean }): DemoCell[] {
    const rng = this.rng
    const [, description, descriptionEn, type, , misleading] = draw.field
    const roll = rng.random()
    let fieldDescription = roll < 0.2 ? descriptionEn : misleading && roll < 0.34 ? misleading : description
    if (rng.random() < 0.03) fieldDescription = ''
    const tableRoll = rng.random()
    const tableDescription = tableRoll < 0.1 ? draw.table[2] : tableRoll < 0.14 ? '' : draw.table[1]
    const fieldName = rng.random() < 0.02 ? `${draw.fieldName} ` : draw.fieldName
    const leaf = labels.leaf
    const path: readonly string[] = labels.unlabeled || !leaf ? ['', '', ''] : leaf.path
    return [
      draw.database,
      demoDatabases[draw.database] ?? '',
      draw.tableName,
      rng.random() < 0.02 ? `${tableDescription}  ` : tableDescription,
      fieldName,
      fieldDescription,
      rng.random() < 0.1 ? type.toLowerCase() : type,
      path[0] as string,
      path[1] as string,
      path[2] as string,
      labels.unlabeled ? '' : (labels.level4 ?? ''),
      labels.unlabeled ? '' : (labels.level ?? ''),
    ]
  }

  /** A level written the many ways annotators write it: "L2", 2, "Level2", "l2". */
  levelCell(level: string): DemoCell {
    const roll = this.rng.random()
    const digit = level.slice(1)
    if (roll < 0.1) return Number(digit)
    if (roll < 0.15) return `Level${digit}`
    if (roll < 0.2) return level.toLowerCase()
    return level
  }

  labeledRow(): DemoRow {
    const draw = this.draw()
    const level = draw.field[4] ?? draw.leaf.level
    const level4 = this.rng.random() < 0.05 ? `${draw.leaf.name}（${draw.leaf.code}）` : draw.leaf.name
    return {
      cells: this.cells(draw, { leaf: draw.leaf, level4, level: this.levelCell(level) }),
      kind: 'labeled',
      categoryId: draw.leaf.code,
      level,
    }
  }

  noisyRow(kind: 'placeholder' | 'unresolvable' | 'unlabeled'): DemoRow {
    const draw = this.draw()
    const level = draw.field[4] ?? draw.leaf.level
    if (kind === 'unlabeled') return { cells: this.cells(draw, { unlabeled: true }), kind }
    const level4 = kind === 'placeholder' ? placeholderLabel : this.pick(unresolvableLabels)
    return { cells: this.cells(draw, { leaf: draw.leaf, level4, level: this.levelCell(level) }), kind }
  }

  /** The same table and field in another database, labelled differently: a prompt conflict. */
  conflictRow(original: DemoRow): DemoRow | undefined {
    const cells = [...original.cells]
    const others = Object.keys(demoDatabases).filter((database) => database !== cells[0])
    const database = this.pick(others)
    const key = this.identity(database, String(cells[2]), String(cells[4]))
    if (this.used.has(key)) return undefined
    this.used.add(key)
    const leaf = demoLeaves.find((candidate) => candidate.code === original.categoryId) as DemoLeaf
    const siblings = demoLeaves.filter((candidate) => candidate !== leaf && candidate.path[0] === leaf.path[0])
    let target = leaf
    let level = original.level === 'L4' ? 'L3' : `L${Number(original.level?.slice(1)) + 1}`
    if (this.rng.random() < 0.5 && siblings.length > 0) {
      target = this.pick(siblings)
      level = target.level
      if (target.level === original.level) level = original.level === 'L1' ? 'L2' : 'L1'
    }
    cells[0] = database
    cells[1] = demoDatabases[database] ?? ''
    cells.splice(7, 5, target.path[0], target.path[1], target.path[2], target.name, level)
    return { cells, kind: 'conflict', categoryId: target.code, level }
  }
}

/** `rows` spreadsheet rows from `seed`; the same arguments always give the same sheet. */
export function generateDemoSheet(options: { rows: number; seed: number }): DemoSheet {
  const total = options.rows
  if (!Number.isInteger(total) || total < 50) throw new RangeError(`the demo sheet needs at least 50 rows, got ${total}`)
  const generator = new DemoGenerator(options.seed)
  const share = (fraction: number, minimum: number) => Math.max(minimum, Math.round(total * fraction))
  const special = {
    placeholder: share(0.015, 2),
    unresolvable: share(0.01, 2),
    unlabeled: share(0.01, 2),
    exact_duplicate: share(0.003, 2),
    conflict: share(0.0015, 3),
  }
  const base = total - special.exact_duplicate - special.conflict
  const kinds: DemoRowKind[] = []
  for (const kind of ['placeholder', 'unresolvable', 'unlabeled'] as const)
    for (let i = 0; i < special[kind]; i++) kinds.push(kind)
  while (kinds.length < base) kinds.push('labeled')
  const rng = new PythonRandom(options.seed + 1)
  rng.shuffle(kinds)
  const rows: DemoRow[] = kinds.map((kind) =>
    kind === 'labeled' ? generator.labeledRow() : generator.noisyRow(kind as 'placeholder'),
  )
  const labeled = rows.filter((row) => row.kind === 'labeled')
  let conflicts = 0
  while (conflicts < special.conflict) {
    const conflict = generator.conflictRow(rng.choice(labeled))
    if (!conflict) continue
    rows.splice(rng.randint(0, rows.length), 0, conflict)
    conflicts++
  }
  for (let i = 0; i < special.exact_duplicate; i++) {
    const original = rng.choice(labeled)
    rows.splice(rng.randint(0, rows.length), 0, { ...original, cells: [...original.cells], kind: 'exact_duplicate' })
  }
  const counts = { labeled: 0, placeholder: 0, unresolvable: 0, unlabeled: 0, exact_duplicate: 0, conflict: 0 }
  for (const row of rows) counts[row.kind]++
  return { header: [...demoHeaders], rows, counts }
}
