/** @module chat/formats: small helpers every parser shares. */
import type { ParseIssue } from '../chat-format.js'
import type { ChatTool } from '../chat-message.js'

/** The tool names calls are checked against; null when the caller gave no tools (no check). */
export function knownToolNames(tools: readonly ChatTool[] | null | undefined): ReadonlySet<string> | null {
  if (!tools || tools.length === 0) return null
  return new Set(tools.map((tool) => tool.function.name))
}

export function toolByName(tools: readonly ChatTool[] | null | undefined, name: string): ChatTool | undefined {
  return tools?.find((tool) => tool.function.name === name)
}

export function countRepairs(issues: readonly ParseIssue[]): number {
  return issues.reduce((total, issue) => total + (issue.repaired ? 1 : 0), 0)
}
