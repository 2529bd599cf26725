/**
 * @module train/verl: the provenance of the checkpoint a run starts from (for RLOO, the reference): its
 * path, the sha256 of `config.json`, of the weight index (`model.safetensors.index.json`, or the single
 * `model.safetensors` itself, streamed) and of the tokenizer and chat-template files it carries. A
 * directory without a config or weights is not a checkpoint.
 */
import { existsSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { sha256File } from '../../io/sha256.js'
import type { CheckResult } from './verl-patches.js'

const tokenizerFiles = ['tokenizer.json', 'tokenizer_config.json', 'chat_template.jinja', 'generation_config.json'] as const

export function checkReferenceCheckpoint(modelPath: string): CheckResult {
  const path = resolve(modelPath)
  const facts: Record<string, unknown> = { path }
  if (!existsSync(path) || !statSync(path).isDirectory())
    return { name: 'reference_checkpoint', passed: false, detail: `${path} is not a checkpoint directory`, facts }
  const config = join(path, 'config.json')
  const index = join(path, 'model.safetensors.index.json')
  const single = join(path, 'model.safetensors')
  const problems: string[] = []
  if (existsSync(config)) facts.config_sha256 = sha256File(config)
  else problems.push('config.json is missing')
  if (existsSync(index)) facts.weight_index = { file: 'model.safetensors.index.json', sha256: sha256File(index) }
  else if (existsSync(single))
    facts.weight_index = { file: 'model.safetensors', sha256: sha256File(single), bytes: statSync(single).size }
  else problems.push('no model.safetensors.index.json or model.safetensors')
  facts.tokenizer_sha256 = Object.fromEntries(
    tokenizerFiles.filter((name) => existsSync(join(path, name))).map((name) => [name, sha256File(join(path, name))]),
  )
  return {
    name: 'reference_checkpoint',
    passed: problems.length === 0,
    detail: problems.length === 0 ? `checkpoint ${path} recorded` : `${path}: ${problems.join('; ')}`,
    facts,
  }
}
