/**
 * @module eval: the settings that decide an LLM run's outcomes, hashed. Every episode line carries it, so a
 * resume with other settings (a different model, mode, sampling, dataset…) is refused rather than mixed.
 * The endpoint URL and streaming are left out on purpose: the same server may come back on another port,
 * and streaming changes how an answer travels, not what it is.
 */
import { createHash } from 'node:crypto'
import type { ModelIdentity } from '../agent/chat-model.js'
import { canonicalJson } from '../core/json/canonical-json.js'

export interface RunSettings {
  envId: string
  datasetSha256: string
  identity: ModelIdentity
  samples: number
  maxTurns?: number
  maxEpisodeSteps?: number
}

export function runFingerprint(settings: RunSettings): string {
  const { base_url: _url, stream: _stream, ...identity } = settings.identity
  const text = canonicalJson({ ...settings, identity })
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}
