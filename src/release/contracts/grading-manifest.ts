/**
 * @module release/contracts: the grading manifest: per dataset, the grading standard's path (relative to
 * the manifest) and the SHA-256 of its exact bytes. Exact key sets; loaders verify the hash.
 */
import { z } from 'zod'
import { parseAsset } from '../../envs/grading/assets/parse-asset.js'

const gradingManifestSchema = z.strictObject({
  datasets: z
    .record(
      z.string(),
      z.strictObject({
        path: z.string().min(1),
        sha256: z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits'),
      }),
    )
    .refine((datasets) => Object.keys(datasets).length > 0, 'the manifest lists no dataset'),
})

export type GradingManifest = z.output<typeof gradingManifestSchema>

export function parseGradingManifest(value: unknown, source: string): GradingManifest {
  return parseAsset(gradingManifestSchema, value, { kind: 'grading manifest', source, code: 'invalid_grading_manifest' })
}
