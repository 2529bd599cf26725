/** The scripted model replays conversations and refuses ones that do not replay, whatever the wire. */
import { describe, expect, it } from 'vitest'
import { chatFormat } from '../../chat/format-registry.js'
import { envRegistry, makeEnv, policyRegistry } from '../../envs/index.js'
import { policyAgent } from '../policy-agent.js'
import { runEpisode } from '../run-episode.js'
import { decodeChatMessages, decodeChatMlPrompt } from './decode-conversation.js'
import { ScriptedConversationError, ScriptedPolicyModel } from './scripted-policy-model.js'

const envId = 'releaseops-v1'
const dataset = envRegistry.get(envId).dataset!
const rows = dataset.rows('eval')
const model = new ScriptedPolicyModel({ envId, policy: 'rule', rows, envs: envRegistry, policies: policyRegistry })

async function conversation(rowIndex: number) {
  const row = rows[rowIndex]!
  const result = await runEpisode({
    env: makeEnv(envId),
    agent: policyAgent(policyRegistry.create(envId, 'rule')),
    reset: dataset.toResetParams(row),
    prompt: row.prompt,
  })
  return result
}

describe('ScriptedPolicyModel', () => {
  it('continues any prefix of an in-process episode with the call the policy made next (chat and ChatML)', async () => {
    const episode = await conversation(5)
    const messages = episode.trajectory.messages
    const assistantAt = messages.flatMap((message, index) => (message.role === 'assistant' ? [index] : []))
    for (const [turn, index] of assistantAt.entries()) {
      const prefix = messages.slice(0, index)
      const fromChat = model.reply(decodeChatMessages({ messages: prefix as never, format: null, tools: model.tools }))
      const expected =
        messages[index]!.role === 'assistant'
          ? ((messages[index] as { tool_calls?: { function: unknown }[] }).tool_calls?.map((call) => call.function) ?? [])
          : []
      expect(fromChat.calls, `turn ${turn}`).toEqual(expected)
      for (const formatId of ['qwen3', 'qwen3.5', 'json-tool-calls'] as const) {
        const format = chatFormat(formatId)
        const prompt = format.render({ messages: prefix, tools: model.tools, addGenerationPrompt: true })
        expect(model.reply(decodeChatMlPrompt({ prompt, format, tools: model.tools })).calls, `${formatId} turn ${turn}`).toEqual(
          expected,
        )
      }
    }
  })

  it('refuses a conversation whose tool results or calls were altered, or that it cannot place', async () => {
    const messages = (await conversation(2)).trajectory.messages
    const tampered = messages
      .slice(0, 4)
      .map((message) => (message.role === 'tool' ? { ...message, content: `${message.content} x` } : message))
    expect(() => model.reply(decodeChatMessages({ messages: tampered as never, format: null, tools: model.tools }))).toThrow(
      ScriptedConversationError,
    )
    const wrongCall = structuredClone(messages.slice(0, 4)) as {
      role: string
      tool_calls?: { function: { arguments: Record<string, string> } }[]
    }[]
    const call = wrongCall.find((message) => message.role === 'assistant')!.tool_calls![0]!
    call.function.arguments = { proposal_id: 'p999' }
    expect(() => model.reply(decodeChatMessages({ messages: wrongCall as never, format: null, tools: model.tools }))).toThrow(
      /would have called/,
    )
    expect(() =>
      model.reply(decodeChatMessages({ messages: [{ role: 'user', content: 'hello' }], format: null, tools: model.tools })),
    ).toThrow(/No dataset row/)
  })
})
