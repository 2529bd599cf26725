/** @module agent: a counting semaphore that bounds in-flight requests to an endpoint (FIFO). */

export class ConcurrencyLimiter {
  private active = 0
  private readonly waiting: (() => void)[] = []
  /** The most requests that were ever in flight at once. */
  peak = 0

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`Concurrency must be a positive integer, got ${limit}.`)
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.active++
    this.peak = Math.max(this.peak, this.active)
    try {
      return await task()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.active--
    }
  }
}
