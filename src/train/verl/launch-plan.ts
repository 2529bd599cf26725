/**
 * @module train/verl: the launch plan of an SFT run, end to end: SFT (this run's launch command) → LoRA
 * merge with VeRL's own model merger (`python -m verl.model_merger merge --backend fsdp`: the base weights in
 * Hugging Face form plus the trained `lora_adapter/`) → the rollout gate of that checkpoint served by vLLM
 * (the adapter as a LoRA module, so `/v1/models` names adapter and base) → the RLOO run, written by
 * `verl config --kind rloo` from the merged checkpoint and adapter, launched only by a preflight that
 * accepts the gate report. Commands only; each step is run by hand or by a scheduler.
 */
import { join } from 'node:path'
import { shellWord } from './verl-overrides.js'
import type { VerlConfig } from './write-verl-config.js'

export interface LaunchStep {
  name: 'sft' | 'merge' | 'gate' | 'rloo'
  command: string
  produces: string
}

export function sftLaunchPlan(options: { runDirectory: string; config: VerlConfig; sftCommand: string }): LaunchStep[] {
  const { runDirectory, config } = options
  const settings = config.settings
  const step = join(runDirectory, 'checkpoints', `global_step_${settings.total_training_steps}`)
  const merged = join(runDirectory, 'merged')
  const adapter = join(merged, 'lora_adapter')
  const name = settings.experiment_name ?? 'sft-run'
  const words = (list: string[]) => list.map(shellWord).join(' ')
  return [
    { name: 'sft', command: options.sftCommand, produces: step },
    {
      name: 'merge',
      command: words([
        settings.python,
        '-m',
        'verl.model_merger',
        'merge',
        '--backend',
        'fsdp',
        '--local_dir',
        step,
        '--target_dir',
        merged,
      ]),
      produces: `${merged} (base weights, tokenizer) and ${adapter}`,
    },
    {
      name: 'gate',
      command: [
        words(['vllm', 'serve', merged, '--enable-lora', '--max-lora-rank', String(settings.lora_rank)]),
        words(['--lora-modules', `${name}=${adapter}`, '--max-model-len', String(settings.max_model_length)]),
        '&& releaseops gate rollout --release <rl-cascade release> --split val --registry … --corpus … --task-config …',
        words(['--grading-manifest', '…', '--base-url', 'http://127.0.0.1:8000/v1', '--model', name, '--samples', '4']),
        words([...(settings.enable_thinking ? ['--enable-thinking'] : []), '--report', join(runDirectory, 'gate.json')]),
      ].join(' '),
      produces: join(runDirectory, 'gate.json'),
    },
    {
      name: 'rloo',
      command: [
        'releaseops verl config --kind rloo --release <rl-cascade release>',
        words(['--model-path', merged, '--settings', JSON.stringify({ lora_adapter_path: adapter })]),
        words([...(settings.enable_thinking ? ['--enable-thinking'] : []), '--output-dir', `${runDirectory}-rloo`]),
        '--registry … --corpus … --task-config … --grading-manifest …',
        `&& releaseops verl preflight --run ${shellWord(`${runDirectory}-rloo`)} --patch-list <file>`,
        words(['--gate-report', join(runDirectory, 'gate.json'), '--sft-release', config.release.directory]),
      ].join(' '),
      produces: `${runDirectory}-rloo/launch.sh`,
    },
  ]
}
