/** @module release/workers: a promise settled from outside, for hand-offs between a thread and its workers. */

/** A promise and its settle functions (`Promise.withResolvers`, which Node 20 lacks). */
export function settleable<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: Error): void } {
  let resolve: (value: T) => void = () => {}
  let reject: (error: Error) => void = () => {}
  const promise = new Promise<T>((onResolve, onReject) => {
    resolve = onResolve
    reject = onReject
  })
  return { promise, resolve, reject }
}
