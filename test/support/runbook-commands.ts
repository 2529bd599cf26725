/**
 * The runbook's commands as written (test/fixtures/runbook-sections-1-5.txt): one command per paragraph,
 * `\` continuations joined, shell words split with double quotes honoured and `$NAME` expanded.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'

export interface RunbookCommand {
  section: string
  args: string[]
}

function words(line: string, variables: Readonly<Record<string, string>>): string[] {
  const expand = (text: string) =>
    text.replace(/\$([A-Z_]+)/g, (_, name: string) => {
      const value = variables[name]
      if (value === undefined) throw new Error(`runbook variable $${name} is not set`)
      return value
    })
  const out: string[] = []
  for (const match of line.matchAll(/(?:[^\s"]+|"[^"]*")+/g)) out.push(expand(match[0].replace(/"/g, '')))
  return out
}

export function runbookCommands(variables: Readonly<Record<string, string>>): RunbookCommand[] {
  const text = readFileSync(resolve(import.meta.dirname, '../fixtures/runbook-sections-1-5.txt'), 'utf8')
  const commands: RunbookCommand[] = []
  let section = ''
  for (const paragraph of text.split(/\n\s*\n/)) {
    const lines = paragraph.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('# '))
    const heading = lines.find((line) => line.startsWith('## '))
    if (heading) section = heading.slice(3).trim()
    const body = lines.filter((line) => !line.startsWith('#')).join('\n')
    if (!body.trim()) continue
    commands.push({ section, args: words(body.replace(/\\\n/g, ' '), variables) })
  }
  return commands
}
