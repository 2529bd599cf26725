/**
 * @module train: creates a directory under the outputs root, or says why it cannot. A root the server's
 * user may not write (a container running as a non-root user in a root-owned folder) is a coded 503
 * naming the folder and `RELEASEOPS_OUTPUTS_DIR`, not a bare EACCES behind `internal_error`.
 */
import { mkdir } from 'node:fs/promises'
import { ReleaseOpsError } from '../core/errors/release-ops-error.js'

/** `status` is read by the server's error mapping, as `OutputsPathError`'s is. */
class OutputsNotWritableError extends ReleaseOpsError {
  readonly status = 503

  constructor(path: string, cause: string) {
    super({
      code: 'outputs_not_writable',
      message: `The server cannot create ${path} (${cause}): start it with RELEASEOPS_OUTPUTS_DIR set to a directory its user may write.`,
      path,
    })
    this.name = 'OutputsNotWritableError'
  }
}

const refusals = new Set(['EACCES', 'EPERM', 'EROFS'])

export async function makeOutputsDirectory(path: string): Promise<void> {
  try {
    await mkdir(path, { recursive: true })
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === undefined || !refusals.has(code)) throw error
    throw new OutputsNotWritableError(path, code)
  }
}
