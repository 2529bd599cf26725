/**
 * @module train/verl: the model family of a checkpoint, read from its own chat template
 * (`chat_template.jinja` or `tokenizer_config.json`'s `chat_template`), and what follows from it: the
 * chat format our renders use, VeRL's rollout tool parser (`multi_turn.format`) and the calls the model
 * writes. Qwen3 writes Hermes JSON calls (`hermes`); Qwen3.5 writes XML calls (`qwen3_coder`). A template
 * we do not know byte for byte is no family: the run must name one, and preflight refuses a disagreement.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { qwen35NothinkTemplate } from '../../chat/templates/qwen3-5-nothink-template.js'
import { qwen35ThinkTemplate } from '../../chat/templates/qwen3-5-think-template.js'
import { qwen3Template } from '../../chat/templates/qwen3-template.js'

export const verlModelFamilies = ['qwen3', 'qwen3.5', 'qwen3.5-nothink'] as const
export type VerlModelFamily = (typeof verlModelFamilies)[number]

export interface ModelFamilyFacts {
  /** The chat format id (`chat render --format`) whose official template the family ships. */
  chat_format: VerlModelFamily
  /** VeRL's `actor_rollout_ref.rollout.multi_turn.format` (its registered tool parser). */
  tool_parser: 'hermes' | 'qwen3_coder'
  /** How the model writes a call, as the release's structured calls render through its template. */
  call_syntax: 'hermes-json' | 'qwen3.5-xml'
}

export const modelFamilyFacts: Record<VerlModelFamily, ModelFamilyFacts> = {
  qwen3: { chat_format: 'qwen3', tool_parser: 'hermes', call_syntax: 'hermes-json' },
  'qwen3.5': { chat_format: 'qwen3.5', tool_parser: 'qwen3_coder', call_syntax: 'qwen3.5-xml' },
  'qwen3.5-nothink': { chat_format: 'qwen3.5-nothink', tool_parser: 'qwen3_coder', call_syntax: 'qwen3.5-xml' },
}

const templates: Record<VerlModelFamily, string> = {
  qwen3: qwen3Template,
  'qwen3.5': qwen35ThinkTemplate,
  'qwen3.5-nothink': qwen35NothinkTemplate,
}

/** The checkpoint's chat template text, or null when it ships none we can read. */
function readChatTemplate(modelPath: string): string | null {
  const jinja = join(modelPath, 'chat_template.jinja')
  if (existsSync(jinja)) return readFileSync(jinja, 'utf8')
  const config = join(modelPath, 'tokenizer_config.json')
  if (!existsSync(config)) return null
  try {
    const parsed = JSON.parse(readFileSync(config, 'utf8')) as { chat_template?: unknown }
    return typeof parsed.chat_template === 'string' ? parsed.chat_template : null
  } catch {
    return null
  }
}

/** The family whose official template this is, byte for byte (trailing newline aside), or null. */
function familyOfTemplate(template: string | null): VerlModelFamily | null {
  if (template === null) return null
  const text = template.replace(/\n$/, '')
  return verlModelFamilies.find((family) => templates[family].replace(/\n$/, '') === text) ?? null
}

export function detectModelFamily(modelPath: string): VerlModelFamily | null {
  return familyOfTemplate(readChatTemplate(modelPath))
}
