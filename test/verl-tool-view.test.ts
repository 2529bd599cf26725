/**
 * One tool view: the SFT rows (a trajectory release read back from Parquet) and the RL prompts (the
 * rl-cascade release's prompt rows, with the tools a VeRL rollout and the rollout gate show: VeRL's
 * pydantic-reduced schemas) render the same `<tools>` block and the same system turn, byte for byte, with
 * each family's official template. Integers in the schemas stay integers (no `1.0`).
 * `scripts/acceptance/verl.sh` checks the same against VeRL's own `OpenAIFunctionToolSchema`.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import type { ChatMessage, ChatTool } from '../src/chat/chat-message.js'
import { chatFormat } from '../src/chat/format-registry.js'
import { toOpenAiTool } from '../src/core/tools/define-tool.js'
import { gradingV1Spec } from '../src/envs/grading/grading-env.js'
import { verlVisibleTools } from '../src/eval/gate/verl-visible-tools.js'
import { readParquetRows } from '../src/release/parquet/parquet-rows.js'
import { readTrajectoryRows } from '../src/release/trajectories/read-trajectory-rows.js'
import { trajectoryTools } from '../src/release/trajectories/trajectory-tools.js'
import { type VerlReleases, verlReleases } from './verl-fixture.js'

let releases: VerlReleases

beforeAll(async () => {
  releases = await verlReleases()
}, 180_000)

function sftRows(): { messages: ChatMessage[]; tools: ChatTool[] }[] {
  const rows: { messages: ChatMessage[]; tools: ChatTool[] }[] = []
  readTrajectoryRows({
    bytes: readFileSync(join(releases.trajectory, 'train.parquet')),
    metadataFields: ['field_name', 'table_name', 'field_description', 'table_description'],
    tools: trajectoryTools(gradingV1Spec),
    onRow: (row) => rows.push({ messages: row.messages as ChatMessage[], tools: structuredClone(row.tools) as ChatTool[] }),
    onError: (message) => {
      throw new Error(message)
    },
  })
  return rows
}

const toolBlock = (text: string) => text.slice(text.indexOf('<tools>'), text.indexOf('</tools>') + '</tools>'.length)
const systemTurn = (text: string) => text.slice(0, text.indexOf('<|im_end|>') + '<|im_end|>'.length)

describe('one tool view for SFT, RL and the gate', () => {
  it('renders the same tools block and system turn in SFT rows and RL prompts', async () => {
    const sft = sftRows()
    const rl = (await readParquetRows(join(releases.cascade, 'train.parquet'))).rows
    expect(sft.length).toBeGreaterThan(10)
    expect(rl.length).toBeGreaterThan(10)
    // What the gate and a VeRL rollout pass to the template (gate-command: verlVisibleTools of the env's tools).
    const rolloutTools = verlVisibleTools(gradingV1Spec.tools.map((tool) => toOpenAiTool(tool)))
    const full = JSON.stringify(gradingV1Spec.tools.map((tool) => toOpenAiTool(tool)))
    expect(full).toMatch(/9007199254740991|additionalProperties|minItems/)
    for (const id of ['qwen3.5', 'qwen3.5-nothink', 'qwen3'] as const) {
      const format = chatFormat(id)
      const render = (messages: ChatMessage[], tools: ChatTool[]) =>
        format.render({ messages, tools, addGenerationPrompt: false, enableThinking: false })
      const rlText = render(rl[0]?.prompt as ChatMessage[], rolloutTools)
      for (const row of sft) {
        const sftText = render(row.messages, row.tools)
        expect(toolBlock(sftText), id).toBe(toolBlock(rlText))
        expect(systemTurn(sftText), id).toBe(systemTurn(rlText))
      }
      expect(toolBlock(rlText)).not.toMatch(/9007199254740991|additionalProperties|minItems|\d\.0\b/)
    }
    expect(JSON.stringify(sft[0]?.tools)).toBe(JSON.stringify(rolloutTools))
  })
})
