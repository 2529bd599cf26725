import { describe, expect, it } from 'vitest'
import { trainerCommand } from './trainer-command.js'
import { trainingParameters, trainingStartSchema } from './training-request.js'

/** The train_grpo.py command line of a start request body. */
const commandFor = (body: unknown) =>
  trainerCommand({
    python: 'python3',
    script: 'train_grpo.py',
    parameters: trainingParameters({
      request: trainingStartSchema.parse(body),
      envId: 'releaseops-v2',
      model: 'Qwen/Qwen3-1.7B',
      tiny: false,
    }),
    runDir: '/runs/x',
    datasetPath: '/runs/x/dataset.jsonl',
    envUrl: 'http://127.0.0.1:8000',
  })

describe('trainerCommand', () => {
  it('passes the GPU run’s options (optim, checkpointing, bf16, beta, loss type, thinking) to train_grpo.py', () => {
    const command = commandFor({
      preset: 'pilot',
      optim: 'paged_adamw_8bit',
      gradient_checkpointing: true,
      bf16: true,
      beta: 0.04,
      loss_type: 'grpo',
      enable_thinking: true,
    })
    const flag = (name: string) => command[command.indexOf(name) + 1]
    expect(flag('--optim')).toBe('paged_adamw_8bit')
    expect(flag('--gradient-checkpointing')).toBe('true')
    expect(flag('--bf16')).toBe('true')
    expect(flag('--beta')).toBe('0.04')
    expect(flag('--loss-type')).toBe('grpo')
    expect(flag('--enable-thinking')).toBe('true')
  })

  it('leaves the defaults to the script (which picks them from the host) when not given', () => {
    const command = commandFor({ preset: 'pilot' })
    for (const name of ['--optim', '--gradient-checkpointing', '--bf16', '--beta', '--loss-type', '--enable-thinking'])
      expect(command).not.toContain(name)
  })

  it('passes vLLM and LoRA settings as train_grpo.py flags', () => {
    const command = commandFor({
      preset: 'pilot',
      use_vllm: 'colocate',
      vllm_gpu_memory_utilization: 0.45,
      lora_r: 16,
      lora_alpha: 32,
      lora_target_modules: ['q_proj', 'v_proj'],
    })
    const flag = (name: string) => command[command.indexOf(name) + 1]
    expect([flag('--use-vllm'), flag('--vllm-gpu-memory-utilization')]).toEqual(['colocate', '0.45'])
    expect([flag('--lora-r'), flag('--lora-alpha'), flag('--lora-target-modules')]).toEqual(['16', '32', 'q_proj,v_proj'])
    expect(command).not.toContain('--vllm-server-base-url')
    const server = commandFor({ use_vllm: 'server', vllm_server_base_url: 'http://127.0.0.1:8001' })
    expect(server[server.indexOf('--vllm-server-base-url') + 1]).toBe('http://127.0.0.1:8001')
  })

  it('refuses LoRA details without a rank, a module name that is not one, a server address without server mode', () => {
    const issue = (body: unknown) => trainingStartSchema.safeParse(body).error?.issues[0]?.path.join('.')
    expect(issue({ lora_alpha: 8 })).toBe('lora_r')
    expect(issue({ lora_r: 8, lora_target_modules: ['q_proj; rm -rf /'] })).toBe('lora_target_modules.0')
    expect(issue({ use_vllm: 'colocate', vllm_server_base_url: 'http://127.0.0.1:8001' })).toBe('vllm_server_base_url')
    expect(issue({ vllm_gpu_memory_utilization: 1.5 })).toBe('vllm_gpu_memory_utilization')
  })

  it('refuses an optimiser or loss type train_grpo.py does not take', () => {
    expect(trainingStartSchema.safeParse({ optim: 'adam_magic' }).success).toBe(false)
    expect(trainingStartSchema.safeParse({ loss_type: 'ppo' }).success).toBe(false)
  })
})
