/**
 * @module server/ws: a connection's messages handled strictly in arrival order, even when one of them
 * (a JSON-RPC batch) is answered asynchronously. Synchronous handling stays synchronous: only while an
 * asynchronous message is in flight are the next ones queued.
 */
export function inOrder<T>(handle: (item: T) => void | Promise<void>, onError: (error: unknown) => void): (item: T) => void {
  const queue: T[] = []
  let busy = false
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
  }
  return (item: T) => {
    queue.push(item)
    if (!busy) drain()
  }
}
