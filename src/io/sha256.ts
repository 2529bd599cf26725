/** @module io: SHA-256 of bytes and of files (streamed, so large artifacts are never held twice). */
import { createHash } from 'node:crypto'
import { closeSync, openSync, readSync } from 'node:fs'

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex')
}

export function sha256File(path: string): string {
  const hash = createHash('sha256')
  const buffer = Buffer.allocUnsafe(1 << 20)
  const descriptor = openSync(path, 'r')
  try {
    for (let read = readSync(descriptor, buffer); read > 0; read = readSync(descriptor, buffer))
      hash.update(buffer.subarray(0, read))
  } finally {
    closeSync(descriptor)
  }
  return hash.digest('hex')
}
