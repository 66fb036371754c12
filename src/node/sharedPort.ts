import { createServer } from 'node:net'

/**
 * The port the serving threads share, found free: a plain bind (no SO_REUSEPORT) fails on a port any socket holds,
 * a node's threads' included, so a second node on the same port is a start-up error as with one thread. Port 0
 * takes one the kernel picks (uSockets would not set SO_REUSEPORT on port 0: each thread would get its own port).
 * The bind is released before the threads listen; a process that takes the port in between makes them fail to.
 */
export function freeSharedPort(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', () => reject(new Error(`cannot listen on ${host}:${port}: the address is in use or not available`)))
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address()
      const chosen = typeof address === 'object' && address !== null ? address.port : port
      probe.close(() => resolve(chosen))
    })
  })
}
