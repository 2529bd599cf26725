/** Whether a Dockerfile stage creates a folder and hands it (or a folder above it) to the stage's USER. */
import type { Instruction } from './dockerfile-instructions.js'

const within = (path: string, folder: string) => path === folder || path.startsWith(`${folder.replace(/\/$/, '')}/`)

export function outputsOwnedByUser(stage: Instruction[], folder: string): boolean {
  const users = stage.filter((item) => item.keyword === 'USER')
  const user = users.at(-1)?.args
  if (!user) return false
  const userIndex = stage.indexOf(users.at(-1) as Instruction)
  // Only RUNs before the USER switch run as root and may chown.
  const runs = stage.slice(0, userIndex).filter((item) => item.keyword === 'RUN')
  const commands = runs.flatMap((item) => item.args.split(/&&|;/).map((part) => part.trim()))
  const made = commands.some((command) => {
    const match = /^mkdir\s+-p\s+(.+)$/.exec(command)
    return match?.[1]?.split(/\s+/).some((path) => within(folder, path)) ?? false
  })
  const owned = commands.some((command) => {
    const match = /^chown\s+-R\s+(\S+)\s+(.+)$/.exec(command)
    if (!match) return false
    const owner = (match[1] as string).split(':')[0]
    return owner === user && (match[2] as string).split(/\s+/).some((path) => within(folder, path))
  })
  return made && owned
}
