/**
 * The commands of a Markdown guide's ```bash blocks, as a shell would run them: `\` continuations joined,
 * `NAME=value` lines setting variables, `$NAME` expanded (double quotes honoured), one command a line.
 * Only `releaseops …` (run in process) and `node …` (a child process in the repository root) are commands;
 * any other line is an error, so a guide cannot hold a step the test skips.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { CliResult } from './run-cli.js'
import { repositoryRoot } from './run-cli.js'
import { runCliInProcess } from './run-cli-in-process.js'

export interface GuideStep {
  line: string
  result: CliResult
}

function expand(text: string, variables: Readonly<Record<string, string>>): string {
  return text.replace(/\$(?:\{([A-Z_]+)\}|([A-Z_]+))/g, (_, braced: string | undefined, plain: string | undefined) => {
    const name = (braced ?? plain) as string
    const value = variables[name]
    if (value === undefined) throw new Error(`guide variable $${name} is not set`)
    return value
  })
}

function words(line: string, variables: Readonly<Record<string, string>>): string[] {
  return [...line.matchAll(/(?:[^\s"]+|"[^"]*")+/g)].map((match) => expand(match[0].replace(/"/g, ''), variables))
}

/** The lines of the file's bash blocks, continuations joined, comments and blank lines dropped. */
export function guideLines(file: string): string[] {
  const text = readFileSync(resolve(repositoryRoot, file), 'utf8')
  return [...text.matchAll(/```bash\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] as string).replace(/\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
}

/** Runs the guide's lines in order, with `variables` as the starting environment; stops at a failure. */
export async function runGuide(file: string, variables: Record<string, string>): Promise<GuideStep[]> {
  const steps: GuideStep[] = []
  for (const line of guideLines(file)) {
    const assignment = /^([A-Z_]+)=(.*)$/.exec(line)
    if (assignment) {
      variables[assignment[1] as string] = words(assignment[2] as string, variables).join(' ')
      continue
    }
    const args = words(line, variables)
    let result: CliResult
    if (args[0] === 'releaseops') result = await runCliInProcess(args.slice(1))
    else if (args[0] === 'node') {
      const child = spawnSync(process.execPath, args.slice(1), { cwd: repositoryRoot, encoding: 'utf8' })
      result = { status: child.status ?? 1, stdout: child.stdout, stderr: child.stderr }
    } else throw new Error(`${file}: "${line}" is neither a variable, releaseops nor node`)
    steps.push({ line, result })
    if (result.status !== 0) break
  }
  return steps
}
