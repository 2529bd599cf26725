/**
 * @module eval: the episodes file of an LLM run: read back for a resume (a half-written last line from
 * an interrupted run is cut off), and appended to one whole line at a time as episodes finish.
 */
import { type FileHandle, mkdir, open, readFile, truncate } from 'node:fs/promises'
import { dirname } from 'node:path'
import { InvalidInputError } from '../core/errors/invalid-input-error.js'
import { type LlmEpisodeLine, llmEpisodeLineSchema } from './llm-episode-record.js'

export interface ExistingEpisodes {
  lines: LlmEpisodeLine[]
  /** Bytes of an unfinished last line that were cut off. */
  droppedBytes: number
}

/** Reads an episodes file; a missing file is empty. Invalid lines stop the resume with their line numbers. */
export async function readEpisodesFile(path: string): Promise<ExistingEpisodes> {
  let bytes: Buffer
  try {
    bytes = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { lines: [], droppedBytes: 0 }
    throw error
  }
  const lastNewline = bytes.lastIndexOf(0x0a)
  const complete = lastNewline === -1 ? Buffer.alloc(0) : bytes.subarray(0, lastNewline + 1)
  const droppedBytes = bytes.length - complete.length
  if (droppedBytes > 0) await truncate(path, complete.length)
  const lines: LlmEpisodeLine[] = []
  const issues: { code: string; path: string; message: string }[] = []
  complete
    .toString('utf8')
    .split('\n')
    .forEach((text, index) => {
      if (text.trim() === '') return
      let value: unknown
      try {
        value = JSON.parse(text)
      } catch (error) {
        issues.push({ code: 'invalid_json', path: `${path}:${index + 1}`, message: (error as Error).message })
        return
      }
      const parsed = llmEpisodeLineSchema.safeParse(value)
      if (!parsed.success) {
        const issue = parsed.error.issues[0]
        issues.push({
          code: issue?.code ?? 'invalid_line',
          path: `${path}:${index + 1}:${issue?.path.join('.') ?? ''}`,
          message: issue?.message ?? 'invalid',
        })
        return
      }
      lines.push(parsed.data as unknown as LlmEpisodeLine)
    })
  if (issues.length > 0) {
    throw new InvalidInputError({
      code: 'invalid_episodes_file',
      path,
      message: `${issues.length} line(s) of ${path} are not LLM episode records; first: ${issues[0]?.path}: ${issues[0]?.message}`,
      issues,
    })
  }
  return { lines, droppedBytes }
}

/** Appends lines one whole line per write, in call order. */
export class EpisodesWriter {
  private chain: Promise<void> = Promise.resolve()

  private constructor(private readonly handle: FileHandle) {}

  static async open(path: string): Promise<EpisodesWriter> {
    await mkdir(dirname(path), { recursive: true })
    return new EpisodesWriter(await open(path, 'a'))
  }

  append(line: LlmEpisodeLine): Promise<void> {
    const text = `${JSON.stringify(line)}\n`
    this.chain = this.chain.then(() => this.handle.write(text).then(() => undefined))
    return this.chain
  }

  async close(): Promise<void> {
    await this.chain
    await this.handle.close()
  }
}
