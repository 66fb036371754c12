import { loadUws } from '../rpc/uws.js'

// The transport ceiling for bench:load: a uWebSockets.js server that answers every POST with a fixed JSON-RPC reply,
// doing no parsing and no work. It prints its port and serves until killed.
const REPLY = '{"jsonrpc":"2.0","id":1,"result":"0x1"}'
const uws = loadUws()
uws
  .App()
  .post('/*', (res) => {
    res.onAborted(() => {})
    res.onData((_chunk, isLast) => {
      if (isLast) res.cork(() => res.writeHeader('Content-Type', 'application/json').end(REPLY))
    })
  })
  .listen('127.0.0.1', Number(process.argv[2] ?? 0), (socket) => {
    if (socket === false) {
      process.stderr.write('trivial server: cannot listen\n')
      process.exit(1)
    }
    process.stdout.write(`listening ${uws.us_socket_local_port(socket)}\n`)
  })
