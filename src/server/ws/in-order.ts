/**
 * @module server/ws: a connection's messages handled strictly in arrival order, even when one of them
 * (a JSON-RPC batch) is answered asynchronously. Synchronous handling stays synchronous: only while an
 * asynchronous message is in flight are the next ones queued. `idle()` resolves once nothing is queued
 * or in flight (the shutdown waits for it before closing the connection).
 */
export interface InOrderHandler<T> {
  (item: T): void
  idle(): Promise<void>
}

export function inOrder<T>(handle: (item: T) => void | Promise<void>, onError: (error: unknown) => void): InOrderHandler<T> {
  const queue: T[] = []
  let busy = false
  let waiters: (() => void)[] = []
  const settle = () => {
    if (busy || queue.length > 0) return
    const waiting = waiters
    waiters = []
    for (const resolve of waiting) resolve()
  }
  const drain = (): void => {
    while (queue.length > 0) {
      const next = queue.shift() as T
      let pending: void | Promise<void>
      try {
        pending = handle(next)
      } catch (error) {
        onError(error)
        continue
      }
      if (pending instanceof Promise) {
        busy = true
        pending.catch(onError).finally(() => {
          busy = false
          drain()
        })
        return
      }
    }
    settle()
  }
  const push = (item: T) => {
    queue.push(item)
    if (!busy) drain()
  }
  push.idle = () => (busy || queue.length > 0 ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve())
  return push
}
