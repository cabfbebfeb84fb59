import type { LinkMark, NodeStreams } from './nodeStreams.js'

/**
 * Keeps Redis scripts that publish (their frames carry no stream number) in order with the numbered messages on the
 * links. A script runs once every message already on a link is handled (acked, or re-sent through Redis), so it
 * overtakes none; messages sent while it waits or runs go through Redis, after it; once it answers, each node it
 * reached gets a fence (through Redis) before any later link message. Scripts run in the order they came.
 */
export function createScriptGate(streams: Pick<NodeStreams, 'hold' | 'marks' | 'passed' | 'fence'>) {
  const waiting: { run: () => void; marks: LinkMark[] }[] = []

  return {
    /** Runs `run` (a script) in its turn; `reached` names the nodes its answer says it published to. */
    script<T>(run: () => Promise<T>, reached: (result: T) => string[]): Promise<T> {
      streams.hold(true)
      const start = () =>
        run().then(
          (result) => {
            for (const node of reached(result)) streams.fence(node)
            streams.hold(false)
            return result
          },
          (error: unknown) => {
            streams.hold(false)
            throw error
          },
        )
      const marks = streams.marks()
      // Nothing on a link and nobody ahead: now, in order with the commands of this turn.
      if (marks.length === 0 && waiting.length === 0) return start()
      return new Promise<T>((resolve, reject) => {
        waiting.push({ run: () => start().then(resolve, reject), marks })
      })
    },
    /** Runs the scripts whose link messages are all handled now, in order. */
    check() {
      for (let next = waiting[0]; next?.marks.every(streams.passed); next = waiting[0]) {
        waiting.shift()
        next.run()
      }
    },
  }
}
