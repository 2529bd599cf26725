import { describe, expect, it } from 'vitest'
import { checkHost, type HostFacts, parseNvidiaSmi } from './host-probe.js'
import { compareVersions } from './verl-patches.js'

const python = {
  python: '3.12.3',
  torch: '2.9.0+cu130',
  torch_cuda: '13.0',
  cuda_available: true,
  device_count: 2,
  verl: '0.9.0',
  verl_root: '/site/verl',
  vllm: '0.11.0',
  executable: '/opt/rl/bin/python3.12',
  imports: { 'verl.trainer.main_ppo': null, 'verl.trainer.main_ppo_v0': null } as Record<string, string | null>,
}
const facts: HostFacts = { gpus: parseNvidiaSmi('NVIDIA H200, 143771, 570.86.15\nNVIDIA H200, 143771, 570.86.15\n'), python }

describe('host gate and versions', () => {
  it('compares dotted versions numerically; a dev suffix sorts before its release', () => {
    expect(compareVersions('0.10.0', '0.9.0')).toBe(1)
    expect(compareVersions('0.9.0', '0.9')).toBe(0)
    expect(compareVersions('0.9.0.dev1', '0.9.0')).toBe(-1)
    expect(compareVersions('0.10.0.dev0', '0.9.0')).toBe(1)
    expect(compareVersions('0.8.9', '0.9.0')).toBe(-1)
    expect(compareVersions('570.86.15', '550')).toBe(1)
  })

  it('parses nvidia-smi CSV and refuses a line it cannot read', () => {
    expect(facts.gpus).toEqual([
      { name: 'NVIDIA H200', memory_mib: 143771, driver: '570.86.15' },
      { name: 'NVIDIA H200', memory_mib: 143771, driver: '570.86.15' },
    ])
    expect(() => parseNvidiaSmi('NVIDIA H200, [N/A], 570\n')).toThrow(
      expect.objectContaining({ code: 'bad_reply', message: expect.stringMatching(/unreadable nvidia-smi line/) }),
    )
  })

  it('passes a matching host and names every shortfall of one that does not match', () => {
    const full = {
      gpus: 2,
      gpuName: 'h200',
      minGpuMemoryGib: 80,
      minDriver: '550',
      cuda: '13.0',
      needVllm: true,
      minVllm: '0.10.2',
    }
    expect(checkHost(facts, full).passed).toBe(true)
    expect(checkHost(facts, { ...full, minVllm: '0.12.0' }).detail).toBe('vllm 0.11.0 is older than 0.12.0')
    const short = checkHost(
      { gpus: facts.gpus?.slice(0, 1) ?? null, python: { ...python, torch_cuda: '12.8', device_count: 1, vllm: null } },
      { gpus: 2, minGpuMemoryGib: 160, cuda: '13.0', needVllm: true },
    )
    expect(short.passed).toBe(false)
    expect(short.detail.split('; ')).toEqual([
      '1 GPU(s), the run needs 2',
      'GPU 0 has 140.4 GiB, the run needs 160 GiB',
      'torch sees 1 CUDA device(s), the run needs 2',
      'torch is built for CUDA 12.8, the run pins 13.0',
      'vllm is not installed (the RLOO rollout needs it)',
    ])
    expect(
      checkHost(
        { gpus: null, gpu_error: 'nvidia-smi: spawn ENOENT', python: null, python_error: 'python3: spawn ENOENT' },
        { gpus: 1, minGpuMemoryGib: 1, needVllm: false },
      ).detail,
    ).toBe('no GPU facts (nvidia-smi: spawn ENOENT); the training interpreter could not be probed (python3: spawn ENOENT)')
  })

  it("fails on each module the trainer imports that does not import, with the interpreter's own error", () => {
    const broken = {
      ...facts,
      python: {
        ...python,
        imports: { ...python.imports, transfer_queue: "ModuleNotFoundError: No module named 'transfer_queue'" },
      },
    }
    const result = checkHost(broken, { gpus: 2, minGpuMemoryGib: 80, needVllm: true })
    expect(result.passed).toBe(false)
    expect(result.detail).toBe(
      "the trainer imports transfer_queue, which fails: ModuleNotFoundError: No module named 'transfer_queue'",
    )
  })
})
