/** @module train/smoke: the tiny local model's settings, shared by `train smoke` and the smoke preset (no imports: cheap to load). */

/**
 * The tiny model and its warm-up. 64 wide, the model learns the call's format but writes `arguments`
 * where the tool's name goes (the token before both is the same; decision 0054); 128 wide it writes
 * the name (decision 0061).
 */
export const warmupSettings = { hiddenSize: 128, layers: 2, learningRate: '5e-3', heldOut: 8, seed: 0 } as const

/** What `releaseops train smoke` uses unless told otherwise; the dashboard's smoke preset takes the same. */
export const warmupDefaults = { steps: 200, rows: 96, minToolCallRate: 0.5 } as const

/** Folders under the outputs root. */
export const tinyModelFolders = { random: 'models/tiny-qwen3-random', warm: 'models/tiny-qwen3-warm' } as const
