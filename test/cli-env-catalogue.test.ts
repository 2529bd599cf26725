/**
 * `releaseops env list` prints the catalogue the build wrote when it was written for the envs module
 * beside it, and falls back to the live registry otherwise; both give the same text.
 */
import { mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { formatEnvList, readBuiltCatalogue, writeEnvCatalogue } from '../src/cli/commands/env-list.js'
import { envCatalogue } from '../src/envs/env-catalogue.js'
import { defaultEnvId, envRegistry, policyRegistry } from '../src/envs/index.js'

let dir: string
let files: { catalogue: string; envsModule: string }
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'env-catalogue-'))
  files = { catalogue: join(dir, 'env-catalogue.json'), envsModule: join(dir, 'index.js') }
  writeFileSync(files.envsModule, 'export {}\n')
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

describe('env catalogue', () => {
  it('describes every registered env as the registry does', () => {
    const entries = envCatalogue()
    expect(entries.map((entry) => entry.id)).toEqual(envRegistry.ids())
    expect(entries.filter((entry) => entry.isDefault).map((entry) => entry.id)).toEqual([defaultEnvId])
    for (const entry of entries) {
      expect(entry.tools).toEqual(envRegistry.spec(entry.id).tools.map((tool) => tool.name))
      expect(entry.policies).toEqual(policyRegistry.names(entry.id))
    }
    const text = formatEnvList(entries)
    expect(text).toContain(`${defaultEnvId} (default)\n`)
    expect(text).toContain('  policies: naive, rule, phase-aware-rule, evidence-heuristic, dissent-first-reader, oracle\n')
    expect(text).toContain('  max steps: 4; splits: train, val, test\n')
  })

  it('reads back what the build wrote, for the same envs module only', async () => {
    expect(readBuiltCatalogue(files)).toBeNull()
    await writeEnvCatalogue(files)
    expect(readBuiltCatalogue(files)).toEqual(envCatalogue())
    // A rebuilt envs module (new modification time) makes the catalogue stale: the live registry answers.
    const later = new Date(Date.now() + 60_000)
    utimesSync(files.envsModule, later, later)
    expect(readBuiltCatalogue(files)).toBeNull()
  })

  it('ignores a catalogue it cannot read', async () => {
    await writeEnvCatalogue(files)
    const written = JSON.parse(readFileSync(files.catalogue, 'utf8')) as { envsModuleMtimeMs: number }
    writeFileSync(files.catalogue, `{"envsModuleMtimeMs": ${written.envsModuleMtimeMs}, "entries": `)
    expect(readBuiltCatalogue(files)).toBeNull()
    writeFileSync(files.catalogue, JSON.stringify({ envsModuleMtimeMs: written.envsModuleMtimeMs, entries: 'x' }))
    expect(readBuiltCatalogue(files)).toBeNull()
  })

  it('refuses to write a catalogue without an envs module, with a code', async () => {
    rmSync(files.envsModule)
    await expect(writeEnvCatalogue(files)).rejects.toMatchObject({ code: 'env_catalogue_without_envs' })
  })
})
