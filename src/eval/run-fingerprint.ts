/**
 * @module eval: the settings that decide an LLM run's outcomes, hashed. Every episode line carries it, so a
 * resume with other settings (a different model, mode, sampling, dataset…) is refused rather than mixed.
 * The endpoint URL and streaming are left out on purpose: the same server may come back on another port,
 * and streaming changes how an answer travels, not what it is.
 */
import { createHash } from 'node:crypto'
import type { ModelIdentity } from '../agent/chat-model.js'

export interface RunSettings {
  envId: string
  datasetSha256: string
  identity: ModelIdentity
  samples: number
  maxTurns?: number
  maxEpisodeSteps?: number
}

function canonical(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null'
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`
  const record = value as Record<string, unknown>
  return `{${Object.keys(record)
    .filter((key) => record[key] !== undefined)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${canonical(record[key])}`)
    .join(',')}}`
}

export function runFingerprint(settings: RunSettings): string {
  const { base_url: _url, stream: _stream, ...identity } = settings.identity
  const text = canonical({ ...settings, identity })
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}
