import type { TemplatedApp } from 'uWebSockets.js'
import { loadUws } from '../rpc/uws.js'

/** A bare uWebSockets.js app, its routes set by `routes`, listening on 127.0.0.1 on a free port: resolves to the port. */
export function listenOnFreePort(routes: (app: TemplatedApp) => TemplatedApp): Promise<{ app: TemplatedApp; port: number }> {
  const uws = loadUws()
  const app = routes(uws.App())
  return new Promise((resolve, reject) => {
    app.listen('127.0.0.1', 0, (socket) => {
      if (socket === false) reject(new Error('cannot listen on a free port'))
      else resolve({ app, port: uws.us_socket_local_port(socket) })
    })
  })
}
