/**
 * @module train/verl: the launch plan of an SFT run, end to end: SFT (this run's launch command) → LoRA
 * merge with VeRL's own model merger (`python -m verl.model_merger merge --backend fsdp`: the base weights in
 * Hugging Face form plus the trained `lora_adapter/`) → with an SFT KL reference, the adapter folded into
 * the weights → the rollout gate of the checkpoint the RL run starts from (`gate.sh`: vLLM in the
 * background, the gate once `/v1/models` answers, vLLM stopped) → the RLOO run, written by `verl config
 * --kind rloo` and launched only by a preflight that accepts the gate report. Commands only; each step is
 * run by hand or by a scheduler.
 */
import { join } from 'node:path'
import { modelFamilyFacts } from './model-family.js'
import { shellWord, verlRunFiles } from './verl-overrides.js'
import type { VerlConfig } from './write-verl-config.js'

export interface LaunchStep {
  name: 'sft' | 'merge' | 'gate' | 'fold' | 'rloo'
  command: string
  produces: string
}

export const gateScriptName = verlRunFiles.gateScript

const words = (list: readonly string[]) => list.map(shellWord).join(' ')

/** Where the SFT run's steps put things. */
function sftPlanPaths(runDirectory: string, config: VerlConfig) {
  const merged = join(runDirectory, 'merged')
  return {
    step: join(runDirectory, 'checkpoints', `global_step_${config.settings.total_training_steps}`),
    merged,
    adapter: join(merged, 'lora_adapter'),
    folded: join(runDirectory, 'folded'),
    gateReport: join(runDirectory, 'gate.json'),
    servedName: config.settings.experiment_name ?? 'sft-run',
  }
}

/**
 * `gate.sh`: `vllm serve` does not return, so it runs in the background; the gate starts once
 * `/v1/models` answers, speaks the model family's chat format (`--mode`), and the server is stopped on
 * any exit. The RL release and its grading manifest come from the environment (they are not known when
 * the SFT run is written); registry, corpus and task config are the run's own hash-checked copies.
 * Exit: the gate's (0 pass, 1 fail, 3 infrastructure), or 3 when vLLM never serves.
 */
export function gateScript(runDirectory: string, config: VerlConfig, python: string): string {
  const settings = config.settings
  const paths = sftPlanPaths(runDirectory, config)
  const mode = modelFamilyFacts[config.model_family].chat_format
  const task = (name: string) => `"$run/task/${name}"`
  return [
    '#!/bin/sh',
    '# Written by releaseops verl preflight: the rollout gate of the merged SFT checkpoint.',
    '#   RL_RELEASE=<rl-cascade release> GRADING_MANIFEST=<its grading manifest> sh gate.sh',
    '# Optional: VLLM_PORT (8000), VLLM_WAIT_S (900), RELEASEOPS (releaseops), GATE_SAMPLES (4).',
    'set -u',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own shell parameter expansions
    ': "${RL_RELEASE:?set RL_RELEASE to the rl-cascade release the RLOO run will train on}"',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own shell parameter expansions
    ': "${GRADING_MANIFEST:?set GRADING_MANIFEST to the grading manifest the release was built with}"',
    `run=${shellWord(runDirectory)}`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own shell parameter expansions
    'port=${VLLM_PORT:-8000}',
    // The gate serves what the RLOO run starts from: the base with the adapter, or the folded weights.
    settings.kl_reference === 'sft'
      ? `${words(['vllm', 'serve', paths.folded, '--served-model-name', paths.servedName])} \\`
      : `${words(['vllm', 'serve', paths.merged, '--enable-lora', '--max-lora-rank', String(settings.lora_rank)])} \\`,
    `  ${words([...(settings.kl_reference === 'sft' ? [] : ['--lora-modules', `${paths.servedName}=${paths.adapter}`]), '--max-model-len', String(settings.max_model_length)])} \\`,
    '  --host 127.0.0.1 --port "$port" >"$run/gate-vllm.log" 2>&1 &',
    'server=$!',
    'trap \'kill "$server" 2>/dev/null; wait "$server" 2>/dev/null\' EXIT',
    "trap 'exit 3' INT TERM",
    'waited=0',
    `until ${shellWord(python)} -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5)' "http://127.0.0.1:$port/v1/models" >/dev/null 2>&1; do`,
    '  kill -0 "$server" 2>/dev/null || { echo "vllm serve exited before serving (see $run/gate-vllm.log)" >&2; exit 3; }',
    '  waited=$((waited + 1))',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own shell parameter expansions
    '  [ "$waited" -lt "${VLLM_WAIT_S:-900}" ] || { echo "vllm serve did not answer /v1/models in ${VLLM_WAIT_S:-900} s" >&2; exit 3; }',
    '  sleep 1',
    'done',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the script's own shell parameter expansions
    '${RELEASEOPS:-releaseops} gate rollout --release "$RL_RELEASE" --split val \\',
    `  --registry ${task('registry.json')} --corpus ${task('corpus.json')} \\`,
    ...(readsTaskConfig(config) ? [`  --task-config ${task('task_config.json')} \\`] : []),
    '  --grading-manifest "$GRADING_MANIFEST" --base-url "http://127.0.0.1:$port/v1" \\',
    `  ${words(['--model', paths.servedName, '--mode', mode])} --samples "\${GATE_SAMPLES:-4}" \\`,
    `  ${[...(settings.enable_thinking ? ['--enable-thinking '] : []), `--report ${shellWord(paths.gateReport)} --overwrite`].join('')}`,
    '',
  ].join('\n')
}

function readsTaskConfig(config: VerlConfig): boolean {
  return config.files['task/task_config.json'] !== undefined
}

export function sftLaunchPlan(options: {
  runDirectory: string
  config: VerlConfig
  sftCommand: string
  /** The probed training interpreter (the config's when the probe failed). */
  python: string
}): LaunchStep[] {
  const { runDirectory, config, python } = options
  const settings = config.settings
  const paths = sftPlanPaths(runDirectory, config)
  const sftReference = settings.kl_reference === 'sft'
  const rlooSettings = sftReference ? { kl_reference: 'sft' } : { lora_adapter_path: paths.adapter }
  const rloo = `${runDirectory}-rloo`
  return [
    { name: 'sft', command: options.sftCommand, produces: paths.step },
    {
      name: 'merge',
      command: words([
        python,
        '-m',
        'verl.model_merger',
        'merge',
        '--backend',
        'fsdp',
        '--local_dir',
        paths.step,
        '--target_dir',
        paths.merged,
      ]),
      produces: `${paths.merged} (base weights, tokenizer) and ${paths.adapter}`,
    },
    ...(sftReference
      ? [
          {
            name: 'fold' as const,
            command: `env PYTHONPATH=${shellWord(runDirectory)} ${words([python, '-m', 'releaseops_verl.fold_adapter', '--base', paths.merged, '--adapter', paths.adapter, '--output', paths.folded])}`,
            produces: `${paths.folded} (SFT weights: the RL run's KL reference and start, with a fresh LoRA)`,
          },
        ]
      : []),
    {
      name: 'gate',
      command: `RL_RELEASE=<rl-cascade release> GRADING_MANIFEST=<file> sh ${shellWord(join(runDirectory, gateScriptName))}`,
      produces: paths.gateReport,
    },
    {
      name: 'rloo',
      command: [
        'releaseops verl config --kind rloo --release <rl-cascade release>',
        words(['--model-path', sftReference ? paths.folded : paths.merged, '--settings', JSON.stringify(rlooSettings)]),
        words([...(settings.enable_thinking ? ['--enable-thinking'] : []), '--out-dir', rloo]),
        '--registry … --corpus … --task-config … --grading-manifest …',
        `&& releaseops verl preflight --run ${shellWord(rloo)}`,
        words(['--gate-report', paths.gateReport, '--sft-release', config.release.directory]),
      ].join(' '),
      produces: `${rloo}/launch.sh`,
    },
  ]
}
