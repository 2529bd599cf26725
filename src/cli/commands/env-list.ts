/**
 * @module cli: `releaseops env list`. It prints the catalogue the build wrote (`dist/env-catalogue.json`)
 * when that file was written for the envs module beside it (same modification time), so listing loads no
 * env and no zod (decision 0044); otherwise (a tsx run, a dist rebuilt without the catalogue step) it
 * asks the live registry. Both print the same text: the file is written from `envCatalogue()`.
 */
import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { ReleaseOpsError } from '../../core/errors/release-ops-error.js'
import type { EnvCatalogueEntry } from '../../envs/env-catalogue.js'

export interface EnvCatalogueFiles {
  /** Where the build writes the catalogue. */
  catalogue: URL | string
  /** The envs module it describes; its modification time ties the two together. */
  envsModule: URL | string
}

const builtFiles: EnvCatalogueFiles = {
  catalogue: new URL('../../env-catalogue.json', import.meta.url),
  envsModule: new URL('../../envs/index.js', import.meta.url),
}

interface CatalogueFile {
  envsModuleMtimeMs: number
  entries: EnvCatalogueEntry[]
}

const mtimeOf = (path: URL | string) => statSync(path, { throwIfNoEntry: false })?.mtimeMs

/** Writes the live registry's catalogue for the envs module at `files.envsModule` (the build's last step). */
export async function writeEnvCatalogue(files: EnvCatalogueFiles = builtFiles): Promise<void> {
  const envsModuleMtimeMs = mtimeOf(files.envsModule)
  if (envsModuleMtimeMs === undefined)
    throw new ReleaseOpsError({
      code: 'env_catalogue_without_envs',
      path: String(files.envsModule),
      message: 'no envs module to write the env catalogue for (run the build first)',
    })
  const { envCatalogue } = await import('../../envs/env-catalogue.js')
  const file: CatalogueFile = { envsModuleMtimeMs, entries: envCatalogue() }
  writeFileSync(files.catalogue, `${JSON.stringify(file)}\n`)
}

/** The built catalogue, or null when it is missing, unreadable or not written for this envs module. */
export function readBuiltCatalogue(files: EnvCatalogueFiles = builtFiles): EnvCatalogueEntry[] | null {
  const envsModuleMtimeMs = mtimeOf(files.envsModule)
  if (envsModuleMtimeMs === undefined) return null
  try {
    const file = JSON.parse(readFileSync(files.catalogue, 'utf8')) as Partial<CatalogueFile>
    return file.envsModuleMtimeMs === envsModuleMtimeMs && Array.isArray(file.entries) ? file.entries : null
  } catch {
    return null
  }
}

export function formatEnvList(entries: readonly EnvCatalogueEntry[]): string {
  return entries
    .map(
      (entry) =>
        `${entry.id}${entry.isDefault ? ' (default)' : ''}\n  ${entry.description}\n` +
        `  tools: ${entry.tools.join(', ')}\n` +
        `  policies: ${entry.policies.join(', ') || '(none)'}\n` +
        `  max steps: ${entry.maxEpisodeSteps}; splits: ${entry.splits?.join(', ') ?? '(none)'}\n`,
    )
    .join('')
}

export async function runEnvList(): Promise<void> {
  const entries = readBuiltCatalogue() ?? (await import('../../envs/env-catalogue.js')).envCatalogue()
  process.stdout.write(formatEnvList(entries))
}
