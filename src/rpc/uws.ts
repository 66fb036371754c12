import { existsSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { isMainThread } from 'node:worker_threads'

export type Uws = typeof import('uWebSockets.js')

const require = createRequire(import.meta.url)
const BINARY = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`
/** Where `npm ci` builds the addon from vendor/uws (scripts/build-uws.mjs): from dist/rpc and src/rpc alike. */
const BUILT = join(fileURLToPath(new URL('../../vendor/uws/build/', import.meta.url)), BINARY)

/**
 * Loads the uWebSockets.js addon built from vendor/uws at install: upstream's sources with Sponge's patches, which
 * answer HTTP/1.0 clients, send 400 before a parser-error close (the prebuilt binary hangs the first and closes
 * silently on the second) and offer a body that came with its head whole (`wholeBody`). SPONGE_UWS_PREBUILT=1 loads the
 * npm package's prebuilt binary instead (a machine without a compiler; bench comparisons). Never the package's own
 * loader: it silently falls back to a slow pure-JS server when the binary does not load, and a throughput node must
 * fail at start-up instead.
 */
export function loadUws(): Uws {
  if (process.env.SPONGE_UWS_PREBUILT === '1') {
    if (isMainThread)
      process.emitWarning('SPONGE_UWS_PREBUILT=1: serving on the prebuilt uWebSockets.js binary, which never answers HTTP/1.0 clients')
    return loadBinary(join(dirname(require.resolve('uWebSockets.js/package.json')), 'binaries', BINARY))
  }
  if (!existsSync(BUILT)) {
    throw new Error(`uWebSockets.js addon not built (${BUILT}): run \`npm run build:uws\` (npm ci builds it; see vendor/uws/README.md)`)
  }
  const uws = loadBinary(BUILT)
  // Built without TLS and QUIC (Sponge serves neither): these would serve plain text or abort.
  const exports = uws as unknown as Record<string, unknown>
  for (const name of ['SSLApp', 'H3App']) {
    exports[name] = () => {
      throw new Error(`uWebSockets.js ${name}: the build from vendor/uws has no TLS or QUIC`)
    }
  }
  return uws
}

function loadBinary(file: string): Uws {
  try {
    return require(file) as Uws
  } catch (e) {
    throw new Error(`uWebSockets.js native binary did not load (${file}): ${(e as Error).message}`)
  }
}

/**
 * The request's body as text when it arrived whole with the head (Sponge's patch, vendor/uws/sponge/whole-body.patch):
 * a handler that answers from it registers neither onData nor, when it answers at once, onAborted. Undefined when some
 * of the body is still to come, for a chunked body, and always on the prebuilt binary: onData delivers it then. Valid
 * only inside the request handler, as the request itself.
 */
export function wholeBody(req: import('uWebSockets.js').HttpRequest): string | undefined {
  return (req as WholeBodyRequest).getWholeBody?.()
}
type WholeBodyRequest = import('uWebSockets.js').HttpRequest & { getWholeBody?: () => string | undefined }

type ListenCallback = (socket: import('uWebSockets.js').us_listen_socket | false) => void
/** LIBUS_LISTEN_EXCLUSIVE_PORT: without it uWS binds with SO_REUSEPORT, and a second process would share the port. */
const EXCLUSIVE_PORT = 1

/** app.listen(host, port, options, cb): served by the binary, missing from its type declarations. */
export function listenExclusive(app: import('uWebSockets.js').TemplatedApp, host: string, port: number, cb: ListenCallback): void {
  listenWith(app, host, port, EXCLUSIVE_PORT, cb)
}

/**
 * Listens with SO_REUSEPORT, so that every serving thread's app takes the same port and the kernel spreads the
 * connections among them (node/servingThreads.ts). uSockets sets SO_REUSEPORT only for a port other than 0: the
 * port is chosen (and found free) before any thread listens.
 */
export function listenShared(app: import('uWebSockets.js').TemplatedApp, host: string, port: number, cb: ListenCallback): void {
  if (port === 0) throw new Error('a shared port must be chosen before listening: port 0 would not be shared')
  listenWith(app, host, port, 0, cb)
}

function listenWith(app: import('uWebSockets.js').TemplatedApp, host: string, port: number, options: number, cb: ListenCallback): void {
  ;(app.listen as unknown as (this: typeof app, h: string, p: number, o: number, c: ListenCallback) => void).call(app, host, port, options, cb)
}

/**
 * app.close(): closes the listening socket and every connection at once (served by the binary, missing from its type
 * declarations). A worker thread must call it before it ends: a thread that ends with a uWS socket open aborts the
 * whole process (node's CheckedUvLoopClose: "uv_loop_close() while having open handles"; tried with this build).
 */
export function closeApp(app: import('uWebSockets.js').TemplatedApp): void {
  ;(app as unknown as { close(): void }).close()
}
