/** @module chat: chat formats by id (`--format qwen3.5`). */
import { UnknownNameError } from '../core/errors/unknown-name-error.js'
import type { ChatFormat } from './chat-format.js'
import { jsonToolCallsFormat } from './formats/json-tool-calls-format.js'
import { qwen3Format } from './formats/qwen3-format.js'
import { qwen35Format, qwen35NothinkFormat } from './formats/qwen35-format.js'

const formats = {
  qwen3: qwen3Format,
  'qwen3.5': qwen35Format,
  'qwen3.5-nothink': qwen35NothinkFormat,
  'json-tool-calls': jsonToolCallsFormat,
} as const satisfies Record<string, ChatFormat>

export type ChatFormatId = keyof typeof formats

/** The format ids, the registry's keys in its order (`--format` choices, `modelModes`). */
export const chatFormatIds: readonly ChatFormatId[] = Object.freeze(Object.keys(formats) as ChatFormatId[])

export function isChatFormatId(id: string): id is ChatFormatId {
  return (chatFormatIds as readonly string[]).includes(id)
}

/** The format with this id; `UnknownNameError` (`unknown_chat_format`) lists the known ones. */
export function chatFormat(id: string): ChatFormat {
  if (!isChatFormatId(id)) throw new UnknownNameError({ kind: 'chat_format', name: id, known: chatFormatIds })
  return formats[id]
}
