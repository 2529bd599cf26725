/**
 * @module release/io: appends text to a file through one reusable buffer: each string is UTF-8 encoded
 * once, straight into the buffer, and the file gets one write per few MB, not one per line. The bytes are
 * hashed on the way out, so the file's SHA-256 needs no second read.
 */
import { createHash } from 'node:crypto'
import { closeSync, openSync, writeSync } from 'node:fs'

export class BufferedFileWriter {
  private readonly descriptor: number
  private buffer: Buffer
  private position = 0
  private readonly hash = createHash('sha256')
  private digest: string | undefined

  /** With `keep`, every flushed chunk (the file's bytes, in order). */
  private readonly kept: Buffer[] | undefined

  /** `keep`: hold on to the bytes written (see `keptBytes`), instead of reusing one buffer. */
  constructor(
    path: string,
    private readonly flushAt = 4 << 20,
    keep = false,
  ) {
    this.descriptor = openSync(path, 'wx')
    this.buffer = Buffer.allocUnsafe(flushAt + (1 << 16))
    if (keep) this.kept = []
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
    if (this.kept && this.position > 0) {
      this.kept.push(this.buffer.subarray(0, this.position))
      this.buffer = Buffer.allocUnsafe(this.buffer.length)
    }
    this.position = 0
  }

  /**
   * Everything written, after `close` of a writer made with `keep` (the chunks are then let go), in a
   * buffer of its own (never Node's shared pool), so it can be moved to another thread.
   */
  keptBytes(): Uint8Array {
    if (!this.kept || this.digest === undefined) throw new Error('keptBytes needs a closed writer made with keep')
    const bytes = new Uint8Array(this.kept.reduce((sum, chunk) => sum + chunk.length, 0))
    let offset = 0
    for (const chunk of this.kept) {
      bytes.set(chunk, offset)
      offset += chunk.length
    }
    this.kept.length = 0
    return bytes
  }

  close(): void {
    this.flush()
    closeSync(this.descriptor)
    this.digest = this.hash.digest('hex')
  }

  /** The SHA-256 of everything written (after `close`). */
  sha256(): string {
    if (this.digest === undefined) throw new Error('the file is still open')
    return this.digest
  }
}
