import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkHubModelAvailable, hubCacheFolder } from './hub-model-cache.js'

let home: string

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'releaseops-hf-'))
})
afterEach(async () => {
  await rm(home, { recursive: true, force: true })
})

const refusal = (environment: NodeJS.ProcessEnv) => {
  try {
    checkHubModelAvailable({ model: 'Qwen/Qwen3-0.6B', environment })
    return null
  } catch (error) {
    return error as { code: string; status: number; path: string; message: string }
  }
}

describe('a Hub model the offline trainer cannot load', () => {
  it('is refused at once, naming the model, the cache and how to provide it', () => {
    const error = refusal({ HF_HOME: home, HF_HUB_OFFLINE: '1' })
    expect(error).toMatchObject({ code: 'model_not_available', status: 422, path: 'model_name' })
    expect(error?.message).toContain(`Qwen/Qwen3-0.6B is not in the trainer's Hugging Face cache (${join(home, 'hub')})`)
    expect(error?.message).toContain('huggingface-cli download Qwen/Qwen3-0.6B')
    expect(error?.message).toContain('model_path')
    expect(refusal({ HF_HOME: home, TRANSFORMERS_OFFLINE: 'true' })?.code).toBe('model_not_available')
  })

  it('loads from a cached snapshot; online, nothing is decided here', async () => {
    expect(refusal({ HF_HOME: home })).toBeNull()
    expect(refusal({ HF_HOME: home, HF_HUB_OFFLINE: '0' })).toBeNull()
    const snapshot = join(home, 'hub', 'models--Qwen--Qwen3-0.6B', 'snapshots', 'abc123')
    await mkdir(snapshot, { recursive: true })
    // A snapshot folder without the model's config is not a model.
    expect(refusal({ HF_HOME: home, HF_HUB_OFFLINE: '1' })?.code).toBe('model_not_available')
    await writeFile(join(snapshot, 'config.json'), '{}')
    expect(refusal({ HF_HOME: home, HF_HUB_OFFLINE: '1' })).toBeNull()
  })

  it('reads the cache huggingface_hub reads: HF_HUB_CACHE, then HUGGINGFACE_HUB_CACHE, then HF_HOME/hub', () => {
    expect(hubCacheFolder({ HF_HUB_CACHE: '/a', HUGGINGFACE_HUB_CACHE: '/b', HF_HOME: '/c' })).toBe('/a')
    expect(hubCacheFolder({ HUGGINGFACE_HUB_CACHE: '/b', HF_HOME: '/c' })).toBe('/b')
    expect(hubCacheFolder({ HF_HOME: '/c' })).toBe(join('/c', 'hub'))
    expect(hubCacheFolder({ HOME: '/h' })).toBe(join('/h', '.cache', 'huggingface', 'hub'))
  })
})
