/** A Dockerfile read as a list of instructions (for the deployment tests: no Docker engine runs here). */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export interface Instruction {
  keyword: string
  args: string
  stage: number
}

/** Instructions with line continuations joined and comments dropped. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\n/g, ' ')
  const instructions: Instruction[] = []
  let stage = -1
  for (const line of joined.split('\n')) {
    const trimmed = line.trim()
    if (!trimmed || trimmed.startsWith('#')) continue
    const match = /^([A-Z]+)\s+(.*)$/.exec(trimmed)
    if (!match) throw new Error(`not an instruction: ${trimmed}`)
    const keyword = match[1] as string
    if (keyword === 'FROM') stage++
    instructions.push({ keyword, args: (match[2] as string).trim(), stage })
  }
  return instructions
}

/** The patterns of a build context's .dockerignore, as regular expressions over relative paths. */
export function ignoredPatterns(contextRoot: string): RegExp[] {
  return readFileSync(resolve(contextRoot, '.dockerignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((pattern) => new RegExp(`^${pattern.replace(/\*\*\//g, '(.*/)?').replace(/\*/g, '[^/]*')}(/|$)`))
}

/** The build-context sources of the COPY instructions (not `--from` ones). */
export function copySources(instructions: Instruction[]): string[] {
  return instructions
    .filter((item) => item.keyword === 'COPY' && !item.args.includes('--from='))
    .flatMap((item) => {
      const parts = item.args.split(/\s+/).filter((part) => !part.startsWith('--'))
      return parts.slice(0, -1)
    })
}

export function finalStage(instructions: Instruction[]): Instruction[] {
  const last = Math.max(...instructions.map((item) => item.stage))
  return instructions.filter((item) => item.stage === last)
}

/** `NAME=value` pairs of a stage's ENV instructions. */
export function stageEnvironment(stage: Instruction[]): Record<string, string> {
  const pairs: Record<string, string> = {}
  for (const item of stage.filter((entry) => entry.keyword === 'ENV')) {
    for (const match of item.args.matchAll(/([A-Z_][A-Z0-9_]*)=(\S+)/g)) pairs[match[1] as string] = match[2] as string
  }
  return pairs
}
