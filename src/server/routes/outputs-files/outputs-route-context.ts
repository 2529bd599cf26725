/** @module server/routes/outputs-files: what the outputs routes share: the root, access, the path query. */
import { z } from 'zod'

export interface OutputsRouteContext {
  outputsRoot: string
}

export const outputsTags = ['outputs']
/** Outputs hold checkpoints and logs: operator level (decision 0047). */
export const outputsAccess = { access: 'operator' as const }
export const pathQuery = z.object({ path: z.string().max(1024).default('').describe('Relative to the outputs root.') })

/** A header-safe file name for Content-Disposition. */
export function attachmentName(name: string): string {
  return name.replace(/[^\w.-]/g, '_') || 'download'
}
