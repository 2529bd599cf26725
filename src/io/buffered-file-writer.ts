/**
 * @module io: appends text to a file through one reusable buffer: each string is UTF-8 encoded
 * once, straight into the buffer, and the file gets one write per few MB, not one per line. The bytes are
 * hashed on the way out, so the file's SHA-256 needs no second read.
 */
import { createHash } from 'node:crypto'
import { closeSync, openSync, writeSync } from 'node:fs'
import { InternalInvariantError } from '../core/errors/internal-invariant-error.js'

export class BufferedFileWriter {
  private readonly descriptor: number
  private buffer: Buffer
  private position = 0
  private readonly hash = createHash('sha256')
  private digest: string | undefined

  constructor(
    path: string,
    private readonly flushAt = 4 << 20,
  ) {
    this.descriptor = openSync(path, 'wx')
    this.buffer = Buffer.allocUnsafe(flushAt + (1 << 16))
  }

  /** Appends bytes as they are. */
  writeBytes(bytes: Uint8Array): void {
    if (this.position + bytes.length > this.buffer.length) {
      this.flush()
      if (bytes.length > this.buffer.length) this.buffer = Buffer.allocUnsafe(bytes.length)
    }
    this.buffer.set(bytes, this.position)
    this.position += bytes.length
    if (this.position >= this.flushAt) this.flush()
  }

  write(text: string): void {
    // A UTF-16 code unit never takes more than 3 UTF-8 bytes.
    const worst = text.length * 3
    if (this.position + worst > this.buffer.length) {
      this.flush()
      if (worst > this.buffer.length) this.buffer = Buffer.allocUnsafe(worst)
    }
    this.position += this.buffer.write(text, this.position, 'utf8')
    if (this.position >= this.flushAt) this.flush()
  }

  flush(): void {
    this.hash.update(this.buffer.subarray(0, this.position))
    let offset = 0
    while (offset < this.position) offset += writeSync(this.descriptor, this.buffer, offset, this.position - offset)
    this.position = 0
  }

  close(): void {
    this.flush()
    closeSync(this.descriptor)
    this.digest = this.hash.digest('hex')
  }

  /** The SHA-256 of everything written (after `close`). */
  sha256(): string {
    if (this.digest === undefined) throw new InternalInvariantError('the file is still open')
    return this.digest
  }
}
