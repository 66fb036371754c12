import type { MessagePort } from 'node:worker_threads'
import { ServerError } from './errors.js'
import type { RawJson } from './reply.js'
import { type Forwarder, nodeReply } from './upstream.js'

/** A call a serving thread hands to the node's main thread. */
export interface ForwardedCall {
  id: number
  method: string
  params: unknown
  /** Whose call it is (an HTTP remote address), for its shares of what clients hold on the node; none: shared. */
  client?: string
  /** The thread's number for the WebSocket connection it came on, which holds the filters it installs. */
  holder?: number
}

/** A serving thread's WebSocket connection that held filters on the main thread has closed: they go with it. */
export interface HolderClosed {
  closed: number
}

/** The main thread's reply to a ForwardedCall: the JSON-RPC reply text it would have sent the client. */
export interface ForwardedReply {
  id: number
  text: string
}

/**
 * A serving thread's way to the node's main thread (node/servingThread.ts): one call a message over a MessagePort,
 * answered with the node's reply unchanged — the reader's forwarding (upstream.ts), without HTTP. The main thread
 * is in this process, so it answers or the process is gone: no ping, no timeout.
 */
export class PortForwarder implements Forwarder {
  private nextId = 0
  /** This thread's numbers for the connections whose calls went to the main thread (ForwardedCall.holder). */
  private readonly holders = new WeakMap<object, number>()
  private nextHolder = 0
  private readonly waiting = new Map<number, { resolve: (r: RawJson) => void; reject: (e: Error) => void; method: string }>()

  constructor(private readonly port: MessagePort) {
    port.on('message', (m: ForwardedReply) => {
      const w = this.waiting.get(m.id)
      if (w === undefined) return
      this.waiting.delete(m.id)
      try {
        w.resolve(nodeReply(m.text, (why) => new ServerError(`the node's reply to ${w.method}: ${why}`)))
      } catch (e) {
        w.reject(e as Error)
      }
    })
  }

  call(method: string, params: unknown, client?: string, filterHolder?: object): Promise<RawJson> {
    const id = ++this.nextId
    const call: ForwardedCall = client === undefined ? { id, method, params } : { id, method, params, client }
    if (filterHolder !== undefined) {
      let holder = this.holders.get(filterHolder)
      if (holder === undefined) this.holders.set(filterHolder, (holder = ++this.nextHolder))
      call.holder = holder
    }
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject, method })
      this.port.postMessage(call)
    })
  }

  /** `filterHolder` has closed: if any of its calls went to the main thread, what they installed there goes too. */
  closed(filterHolder: object): void {
    const holder = this.holders.get(filterHolder)
    if (holder === undefined) return
    this.holders.delete(filterHolder)
    this.port.postMessage({ closed: holder } satisfies HolderClosed)
  }
}
