import { once } from 'node:events'
import WebSocket from 'ws'

// A JSON-RPC client over WebSocket for tests: calls, and the notifications eth_subscribe pushes.

/** Init code of a contract whose runtime logs LOG1(topic = calldata[0:32]). */
export const EMITTER_INIT = '0x600a80600b6000396000f360003560006000a100'

export interface Message {
  id?: number
  result?: unknown
  error?: { code: number; message?: string }
  method?: string
  params?: { subscription: string; result: Record<string, unknown> | string }
}

/** A client that queues what the server sends; `next` waits for the next message matching a test. */
export class WsClient {
  readonly queue: Message[] = []
  private waiting: (() => void) | undefined
  private id = 0

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => {
      this.queue.push(JSON.parse(String(data)) as Message)
      this.waiting?.()
    })
  }

  static async open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    const ws = new WebSocket(url, { headers })
    await once(ws, 'open')
    return new WsClient(ws)
  }

  async call<T>(method: string, params: unknown[] = []): Promise<{ result?: T; error?: { code: number; message?: string } }> {
    const id = ++this.id
    this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }))
    return (await this.next((m) => m.id === id)) as { result?: T; error?: { code: number; message?: string } }
  }

  async next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const i = this.queue.findIndex(match)
      if (i >= 0) return this.queue.splice(i, 1)[0]!
      await new Promise<void>((r) => (this.waiting = r))
    }
  }

  notifications(sub: string): Message[] {
    return this.queue.filter((m) => m.params?.subscription === sub)
  }
}
