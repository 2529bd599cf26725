/**
 * The Space images without Docker (it cannot run here): every COPY source of Dockerfile (GPU, trains) and
 * Dockerfile.cpu (env only) exists and is not dropped by .dockerignore; the GPU image carries python/,
 * web/ and the trainer's dependency set and points RELEASEOPS_TRAIN_PYTHON at it; both run as a non-root
 * user, pin their bases, bake in no token, and serve the dashboard. A small lint of our own rules.
 */
import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { copySources, finalStage, ignoredPatterns, parseDockerfile, stageEnvironment } from './support/dockerfile-instructions.js'
import { outputsOwnedByUser } from './support/outputs-owner.js'

const root = resolve(import.meta.dirname, '..')

describe.each([
  ['Dockerfile', { trains: true }],
  ['Dockerfile.cpu', { trains: false }],
])('%s', (file, { trains }) => {
  const instructions = parseDockerfile(readFileSync(resolve(root, file), 'utf8'))
  const final = finalStage(instructions)

  it('copies only files that exist and that .dockerignore keeps', () => {
    const ignored = ignoredPatterns(root)
    const sources = copySources(instructions)
    expect(sources.length).toBeGreaterThan(5)
    for (const source of sources) {
      expect(existsSync(resolve(root, source)), `${file}: COPY ${source}`).toBe(true)
      expect(
        ignored.some((pattern) => pattern.test(source)),
        `${file}: COPY ${source} is dropped by .dockerignore`,
      ).toBe(false)
    }
  })

  it('ships the server, the dashboard and the manifest; the trainer only in the GPU image', () => {
    const copied = copySources(final)
    for (const needed of ['bin', 'web', 'openenv.yaml', 'package.json']) expect(copied, needed).toContain(needed)
    expect(final.some((item) => item.keyword === 'COPY' && /--from=build \/app\/dist/.test(item.args))).toBe(true)
    expect(copied.includes('python')).toBe(trains)
    const environment = final
      .filter((item) => item.keyword === 'ENV')
      .map((item) => item.args)
      .join(' ')
    // Bound to 0.0.0.0 behind the Space proxy: the Space's Host must pass the DNS-rebinding check.
    expect(environment).toContain('RELEASEOPS_ALLOWED_HOSTS=*.hf.space')
    if (trains) {
      expect(environment).toContain('RELEASEOPS_TRAIN_PYTHON=/opt/rl/bin/python')
      const runs = final
        .filter((item) => item.keyword === 'RUN')
        .map((item) => item.args)
        .join('\n')
      expect(runs).toContain('/opt/rl/bin/pip install --no-cache-dir -r /tmp/requirements-train.txt')
      expect(runs).toMatch(/pip install --no-cache-dir torch --index-url "\$\{TORCH_INDEX_URL\}"/)
      expect(instructions.find((item) => item.keyword === 'ARG' && item.args.startsWith('CUDA_IMAGE='))?.args).toMatch(
        /nvidia\/cuda:/,
      )
    }
  })

  it('runs on Node 24 (the current LTS) in every Node stage', () => {
    const nodeBases = instructions.filter((item) => item.keyword === 'FROM' && item.args.startsWith('node:'))
    expect(nodeBases.length).toBeGreaterThan(0)
    for (const from of nodeBases) expect(from.args).toMatch(/^node:24-/)
  })

  it("writes its outputs to RELEASEOPS_OUTPUTS_DIR, a folder the image's USER owns", () => {
    const outputs = stageEnvironment(final).RELEASEOPS_OUTPUTS_DIR
    expect(outputs).toBe('/data/outputs')
    expect(outputsOwnedByUser(final, outputs as string)).toBe(true)
  })

  it('lint: pinned bases, a non-root user, a health check, no token baked in, serve as the command', () => {
    for (const from of instructions.filter((item) => item.keyword === 'FROM')) {
      expect(from.args, 'FROM without :latest').not.toMatch(/:latest\b/)
      expect(from.args).toMatch(/:|\$\{/)
    }
    const user = final.filter((item) => item.keyword === 'USER').at(-1)?.args
    expect(user && user !== 'root' && user !== '0').toBe(true)
    expect(final.some((item) => item.keyword === 'HEALTHCHECK')).toBe(true)
    for (const item of instructions.filter((entry) => entry.keyword === 'ENV' || entry.keyword === 'ARG')) {
      expect(item.args, 'no token in the image').not.toMatch(/TOKEN=/)
    }
    expect(final.at(-1)).toEqual({ keyword: 'CMD', args: '["node", "bin/releaseops.js", "serve"]', stage: final[0]?.stage })
  })
})

describe('python/requirements-train.txt', () => {
  it('declares the trainer set (TRL >= 1.8) and leaves torch to the host', () => {
    const lines = readFileSync(resolve(root, 'python/requirements-train.txt'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.startsWith('#'))
    const names = lines.map((line) => /^[A-Za-z0-9_.-]+/.exec(line)?.[0])
    expect(names).toEqual(['trl', 'transformers', 'datasets', 'accelerate', 'peft', 'huggingface_hub', 'bitsandbytes'])
    expect(lines[0]).toMatch(/^trl>=1\.8/)
    expect(names).not.toContain('torch')
  })
})
