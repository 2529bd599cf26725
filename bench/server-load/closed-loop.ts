/**
 * One closed-loop session of a load generator: sends an episode's messages one at a time, each after the
 * reply to the one before, episode after episode (starting at `start`), until `stopped()`. `onReply` gets
 * each reply with the episode and message it answers and the round trip in ms.
 */
import type WebSocket from 'ws'

export function closedLoop<E extends { messages: string[] }>(options: {
  socket: WebSocket
  episodes: readonly E[]
  start: number
  stopped: () => boolean
  onReply: (data: Buffer, episode: E, position: number, latencyMs: number) => void
}): Promise<void> {
  const { socket, episodes } = options
  return new Promise<void>((resolve) => {
    let episode = options.start % episodes.length
    let position = 0
    let sentAt = 0n
    const send = () => {
      if (options.stopped() || socket.readyState !== socket.OPEN) return resolve()
      sentAt = process.hrtime.bigint()
      socket.send((episodes[episode] as E).messages[position] as string)
    }
    socket.on('close', () => resolve())
    socket.on('message', (data: Buffer) => {
      options.onReply(data, episodes[episode] as E, position, Number(process.hrtime.bigint() - sentAt) / 1e6)
      position++
      if (position === (episodes[episode] as E).messages.length) {
        position = 0
        episode = (episode + 1) % episodes.length
      }
      send()
    })
    send()
  })
}
