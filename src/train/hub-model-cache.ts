/**
 * @module train: whether a Hub model can load in the trainer's environment without the network. When
 * that environment says offline (`HF_HUB_OFFLINE` or `TRANSFORMERS_OFFLINE`) and the model is not in
 * its Hugging Face cache, the run would only fail deep in the trainer (decision 0068: 97 s and an
 * `OSError … couldn't connect`), so it is refused at once, naming the model and how to provide it.
 * Online, the trainer downloads it; nothing here guesses about the network.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { TrainingUnavailableError } from './training-errors.js'

const truthy = (value: string | undefined) => value !== undefined && /^(1|true|yes|on)$/i.test(value.trim())

/** The hub cache huggingface_hub reads in `environment`: HF_HUB_CACHE, else HUGGINGFACE_HUB_CACHE, else HF_HOME/hub. */
export function hubCacheFolder(environment: NodeJS.ProcessEnv): string | null {
  const home = environment.HF_HOME || (environment.HOME ? join(environment.HOME, '.cache', 'huggingface') : null)
  return environment.HF_HUB_CACHE || environment.HUGGINGFACE_HUB_CACHE || (home ? join(home, 'hub') : null)
}

/** True when a snapshot of `repo` with a config.json is in `cache` (any revision). */
function hasCachedModel(cache: string, repo: string): boolean {
  const snapshots = join(cache, `models--${repo.replace('/', '--')}`, 'snapshots')
  if (!existsSync(snapshots)) return false
  return readdirSync(snapshots).some((revision) => existsSync(join(snapshots, revision, 'config.json')))
}

/** Refuses a Hub model the offline trainer cannot load (422 `model_not_available`). */
export function checkHubModelAvailable(options: { model: string; environment: NodeJS.ProcessEnv }): void {
  const { model, environment } = options
  const offline = ['HF_HUB_OFFLINE', 'TRANSFORMERS_OFFLINE'].find((name) => truthy(environment[name]))
  if (offline === undefined) return
  const cache = hubCacheFolder(environment)
  if (cache !== null && hasCachedModel(cache, model)) return
  throw new TrainingUnavailableError({
    code: 'model_not_available',
    status: 422,
    path: 'model_name',
    message:
      `${model} is not in the trainer's Hugging Face cache (${cache ?? 'none set'}) and the trainer is offline (${offline}=1). ` +
      `Download it where the Hub is reachable (\`huggingface-cli download ${model}\`) into that cache, or copy its folder under the outputs root and give model_path, ` +
      'or start the smoke preset without a model (the tiny local model needs no network).',
  })
}
