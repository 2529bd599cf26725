/**
 * @module release/trajectories/think: thoughts written by an external reasoning writer, read from a JSONL
 * file or a directory of them (`*.jsonl`, by name), keyed by `sample_id`. Each line needs `sample_id`,
 * `think` (the answer turn) and `tool_think` (one per tool-call turn); it may repeat the collect line's
 * context, which must then equal the re-derived trajectory. Unreadable lines, duplicates, missing and
 * unknown samples and wrong `tool_think` counts are collected as issues with their file and line.
 */
import { readdirSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { z } from 'zod'
import type { InputIssue } from '../../../core/errors/invalid-input-error.js'
import { pythonDumpsCompact } from '../../../core/python/python-json.js'
import { readFileBytes } from '../../../io/read-json-file.js'
import { sha256Hex } from '../../../io/sha256.js'
import type { Trajectory } from '../build-trajectory.js'
import { type CollectLine, collectContextKeys, collectLine } from '../collect-line.js'

const thoughtLineSchema = z.looseObject({
  sample_id: z.string().min(1),
  think: z.string(),
  tool_think: z.array(z.string()),
})

interface ThoughtEntry {
  where: string
  think: string
  toolThink: string[]
  line: Record<string, unknown>
}

export interface ThoughtFiles {
  files: { path: string; sha256: string; lines: number }[]
}

export class FileThoughtSource {
  readonly issues: InputIssue[] = []
  private readonly entries = new Map<string, ThoughtEntry>()
  private readonly used = new Set<string>()
  readonly files: ThoughtFiles['files'] = []

  constructor(readonly path: string) {
    const paths = statSync(path, { throwIfNoEntry: false })?.isDirectory()
      ? readdirSync(path)
          .filter((name) => name.endsWith('.jsonl'))
          .sort()
          .map((name) => join(path, name))
      : [path]
    if (paths.length === 0) this.issues.push({ code: 'think_source_empty', path, message: 'the directory holds no *.jsonl file' })
    for (const file of paths) this.readFile(file)
  }

  private readFile(file: string): void {
    const bytes = readFileBytes(file, 'thought file')
    const lines = bytes.toString('utf8').split('\n')
    let count = 0
    lines.forEach((text, index) => {
      if (text.trim() === '') return
      count++
      const where = `${basename(file)}:${index + 1}`
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        this.issues.push({ code: 'think_invalid_line', path: where, message: `not JSON: ${(error as Error).message}` })
        return
      }
      const parsed = thoughtLineSchema.safeParse(value)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        this.issues.push({
          code: 'think_invalid_line',
          path: `${where}:${issue?.path.join('.')}`,
          message: issue?.message ?? 'invalid',
        })
        return
      }
      const line = parsed.data
      const previous = this.entries.get(line.sample_id)
      if (previous) {
        this.issues.push({
          code: 'think_duplicate',
          path: where,
          message: `sample ${line.sample_id} is also at ${previous.where}`,
        })
        return
      }
      this.entries.set(line.sample_id, { where, think: line.think, toolThink: line.tool_think, line })
    })
    this.files.push({ path: file, sha256: sha256Hex(bytes), lines: count })
  }

  /** The raw thoughts of a trajectory, or undefined (with an issue recorded) when they cannot be used. */
  thoughtsFor(trajectory: Trajectory, split: CollectLine['split']): { tool: string[]; final: string } | undefined {
    const entry = this.entries.get(trajectory.sourceId)
    if (!entry) {
      this.issues.push({
        code: 'think_missing',
        path: `sample ${trajectory.sourceId}`,
        message: `no thought line for this ${split} sample`,
      })
      return undefined
    }
    this.used.add(trajectory.sourceId)
    if (entry.toolThink.length !== trajectory.calls.length) {
      this.issues.push({
        code: 'think_tool_count',
        path: `${entry.where}:tool_think`,
        message: `${entry.toolThink.length} tool thoughts for ${trajectory.calls.length} tool-call turns`,
      })
      return undefined
    }
    const expected = collectLine(trajectory, split) as unknown as Record<string, unknown>
    for (const key of collectContextKeys) {
      if (!(key in entry.line)) continue
      if (pythonDumpsCompact(entry.line[key] as never) !== pythonDumpsCompact(expected[key] as never)) {
        this.issues.push({
          code: 'think_context_mismatch',
          path: `${entry.where}:${key}`,
          message: `${key} differs from the re-derived trajectory (the line was written for other data)`,
        })
        return undefined
      }
    }
    return { tool: entry.toolThink, final: entry.think }
  }

  /** Records an issue for every line whose sample is not in the release. */
  checkUnused(): void {
    for (const [sampleId, entry] of this.entries) {
      if (!this.used.has(sampleId))
        this.issues.push({
          code: 'think_unknown_sample',
          path: entry.where,
          message: `sample ${sampleId} is not in this release`,
        })
    }
  }

  get sha256(): string {
    return sha256Hex(this.files.map((file) => `${basename(file.path)}\0${file.sha256}`).join('\n'))
  }
}
