import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { accessSync, constants, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { type AddressInfo, createConnection, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'

// HAProxy in front of a node and its readers (issue 23), as the README's recipe runs it: readers take the traffic,
// the node is the backup, GET /health decides who is up, and a request that meets a dead reader is retried on another
// server. haproxyConfig writes the one config text; startHaproxy runs it in the foreground for tests and benchmarks,
// and reads the servers' states through HAProxy's stats socket (its runtime API).

export interface HaproxyBackend {
  /** The server's name in HAProxy (stats, runtime API). */
  name: string
  /** Its JSON-RPC URL, http://<ip>:<port>. */
  url: string
  /** Gets traffic only when no other server is up (the node behind its readers). */
  backup?: boolean
}

/** The health check's rhythm: every `interMs`, down after `fall` failures in a row, up after `rise` successes. */
export interface HaproxyCheck {
  interMs: number
  fall: number
  rise: number
}

/** Tests': a killed reader is out within about a second, a restarted one back at its first good check. */
export const TEST_CHECK: HaproxyCheck = { interMs: 500, fall: 2, rise: 1 }
/** The README recipe's: checks every 2 s, out after two failures, back after two successes. */
export const RECIPE_CHECK: HaproxyCheck = { interMs: 2000, fall: 2, rise: 2 }

export interface HaproxyConfigOptions {
  /** The frontend's address and port, where clients connect. */
  bind: { host: string; port: number }
  /** The runtime API's unix socket (`show stat`, `set server`). */
  statsSocket: string
  check: HaproxyCheck
  balance?: 'leastconn' | 'roundrobin'
  maxconn?: number
}

/** The backend's name in the config (`show stat`, `set server sponge/<name> …`). */
export const HAPROXY_BACKEND = 'sponge'

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`)

/** host:port of a backend URL (http://127.0.0.1:8547 → 127.0.0.1:8547). */
function hostPort(url: string): string {
  const u = new URL(url)
  if (u.protocol !== 'http:' || u.port === '') throw new Error(`a backend is http://<host>:<port>, got ${url}`)
  return `${u.hostname}:${u.port}`
}

/**
 * The haproxy.cfg text: the README shows it for its ports (a test checks the two agree), tests and benchmarks run it
 * with theirs.
 */
export function haproxyConfig(backends: readonly HaproxyBackend[], opts: HaproxyConfigOptions): string {
  if (backends.length === 0) throw new Error('HAProxy needs at least one backend')
  const { interMs, fall, rise } = opts.check
  return `global
    maxconn ${opts.maxconn ?? 4096}
    stats socket ${opts.statsSocket} mode 600 level admin

defaults
    mode http
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout http-request 10s
    # WebSocket: an upgraded connection lives by this one
    timeout tunnel 1h
    # JSON-RPC is POST: the body is buffered so that a request may be sent again
    option http-buffer-request
    # a request that met a dead or draining server goes to another one
    retries 3
    retry-on conn-failure empty-response response-timeout 503
    option redispatch 1

frontend rpc
    bind ${opts.bind.host}:${opts.bind.port}
    default_backend ${HAPROXY_BACKEND}

backend ${HAPROXY_BACKEND}
    balance ${opts.balance ?? 'leastconn'}
    # GET /health, HAProxy's plain check (HTTP/1.0, no Host): 200 when it serves a fresh head, 503 when
    # starting, draining or stale
    option httpchk GET /health
    http-check expect status 200
    default-server inter ${seconds(interMs)} fall ${fall} rise ${rise}
${backends.map((b) => `    server ${b.name} ${hostPort(b.url)} check${b.backup === true ? ' backup' : ''}`).join('\n')}
`
}

/**
 * The haproxy binary: $SPONGE_HAPROXY if set (a path; one that is no HAProxy makes it missing), else on PATH, else
 * Debian's /usr/sbin/haproxy (not on a non-root PATH); undefined if none.
 */
export function haproxyPath(): string | undefined {
  const chosen = process.env.SPONGE_HAPROXY
  const candidates =
    chosen !== undefined
      ? [chosen]
      : [...(process.env.PATH ?? '').split(delimiter).filter((d) => d.length > 0), '/usr/sbin', '/usr/local/sbin'].map((d) => join(d, 'haproxy'))
  return candidates.find(isHaproxy)
}

/** Something that runs and says it is HAProxy. */
function isHaproxy(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
  } catch {
    return false
  }
  return /HAProxy version/.test(spawnSync(path, ['-v'], { encoding: 'utf8', timeout: 10_000 }).stdout ?? '')
}

/** One server's line of `show stat`. */
export interface HaproxyServerStat {
  name: string
  /** UP, DOWN, MAINT, "UP 1/2" (going down), "DOWN 1/2" (going up), NOLB, no check… */
  status: string
  /** The last check's result: L7OK, L7STS (a status other than 200), L4CON (refused), INI (none yet)… */
  checkStatus: string
  backup: boolean
  /** Requests sent to it, and how many of those were retried or redispatched (HAProxy's wretr, wredis). */
  sent: number
  retries: number
  redispatches: number
}

export interface StartHaproxyOptions {
  check?: HaproxyCheck
  balance?: 'leastconn' | 'roundrobin'
  maxconn?: number
  /** The haproxy binary (default haproxyPath()). */
  binary?: string
  /** The bound on starting and on the first server coming up, ms (default 30 s). */
  timeoutMs?: number
}

export interface RunningHaproxy {
  /** The frontend's URL, http://127.0.0.1:<port> (ws:// on the same port for WebSocket). */
  url: string
  configText: string
  /** Its unix socket: the runtime API. */
  statsSocket: string
  process: ChildProcess
  /** What HAProxy printed (warnings, alerts). */
  log(): string
  /** A runtime API command's reply (`show stat`, `set server sponge/r1 addr 127.0.0.1 port 9000`…). */
  command(line: string): Promise<string>
  /** The backend's servers, as `show stat` reports them. */
  servers(): Promise<HaproxyServerStat[]>
  /** Waits (bounded) until the server is UP (with a passed check) or DOWN; the state it reached. */
  waitFor(name: string, state: 'UP' | 'DOWN', timeoutMs?: number): Promise<HaproxyServerStat>
  /** Points a server at a new address (a reader restarted on another port); its checks go on there. */
  setServer(name: string, url: string): Promise<void>
  stop(): Promise<void>
}

/** A free TCP port on 127.0.0.1, as the kernel hands one out (HAProxy cannot bind port 0 and say which it got). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** One runtime API command over the stats socket (non-interactive: HAProxy answers and closes). */
function runtimeCommand(socket: string, line: string, timeoutMs = 5000): Promise<string> {
  return new Promise((resolve, reject) => {
    const conn = createConnection({ path: socket })
    let text = ''
    conn.setTimeout(timeoutMs, () => conn.destroy(new Error(`HAProxy's stats socket did not answer ${line} within ${timeoutMs} ms`)))
    conn.on('connect', () => conn.end(`${line}\n`))
    conn.on('data', (d: Buffer) => (text += d.toString()))
    conn.on('error', reject)
    conn.on('close', () => resolve(text))
  })
}

/** The backend's servers from `show stat`'s CSV (its first line names the columns). */
export function parseShowStat(csv: string, backend = HAPROXY_BACKEND): HaproxyServerStat[] {
  const lines = csv.split('\n').filter((l) => l.length > 0)
  const header = lines[0]?.replace(/^# /, '').split(',') ?? []
  const col = (name: string) => {
    const i = header.indexOf(name)
    if (i < 0) throw new Error(`show stat has no ${name} column: ${lines[0]}`)
    return i
  }
  const [px, sv, status, check, bck, stot, wretr, wredis] = ['pxname', 'svname', 'status', 'check_status', 'bck', 'stot', 'wretr', 'wredis'].map(
    col,
  ) as [number, number, number, number, number, number, number, number]
  return lines
    .slice(1)
    .map((l) => l.split(','))
    .filter((f) => f[px] === backend && f[sv] !== 'BACKEND' && f[sv] !== 'FRONTEND')
    .map((f) => ({
      name: f[sv] ?? '',
      status: f[status] ?? '',
      checkStatus: f[check] ?? '',
      backup: f[bck] === '1',
      sent: Number(f[stot] ?? 0),
      retries: Number(f[wretr] ?? 0),
      redispatches: Number(f[wredis] ?? 0),
    }))
}

/** UP with a passed check: HAProxy lists a server UP before its first check has run. */
const isUp = (s: HaproxyServerStat) => s.status === 'UP' && s.checkStatus === 'L7OK'

/** Polls `probe` every `everyMs` until it returns a value, or fails after `timeoutMs` with `what` and the last error. */
async function until<T>(
  what: string,
  timeoutMs: number,
  everyMs: number,
  probe: () => Promise<T | undefined>,
  stop?: () => string | undefined,
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  let last = ''
  for (;;) {
    const why = stop?.()
    if (why !== undefined) throw new Error(why)
    try {
      const v = await probe()
      if (v !== undefined) return v
    } catch (e) {
      last = `: ${(e as Error).message}`
    }
    if (Date.now() > deadline) throw new Error(`${what} within ${timeoutMs} ms${last}`)
    await new Promise((r) => setTimeout(r, everyMs))
  }
}

/**
 * Starts HAProxy (in the foreground) on 127.0.0.1 at a free port with haproxyConfig's config written to a
 * temporary folder, in front of `backends`; resolves once it accepts connections and one server is UP (its stats
 * socket says so). A port taken between the probe and HAProxy's bind is retried on another.
 */
export async function startHaproxy(backends: readonly HaproxyBackend[], opts: StartHaproxyOptions = {}): Promise<RunningHaproxy> {
  const binary = opts.binary ?? haproxyPath()
  if (binary === undefined) throw new Error('haproxy not found (on PATH or /usr/sbin); Debian: apt-get install haproxy')
  const timeoutMs = opts.timeoutMs ?? 30_000
  const dir = mkdtempSync(join(tmpdir(), 'sponge-haproxy-'))
  const statsSocket = join(dir, 'haproxy.sock')
  const configFile = join(dir, 'haproxy.cfg')
  let lastFailure = ''
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort()
    const configText = haproxyConfig(backends, {
      bind: { host: '127.0.0.1', port },
      statsSocket,
      check: opts.check ?? TEST_CHECK,
      ...(opts.balance === undefined ? {} : { balance: opts.balance }),
      ...(opts.maxconn === undefined ? {} : { maxconn: opts.maxconn }),
    })
    writeFileSync(configFile, configText)
    // -db: in the foreground, not daemonized; -dR: no SO_REUSEPORT, so that a port another HAProxy took meanwhile
    // is a bind error here, never a port the two silently share.
    const child = spawn(binary, ['-db', '-dR', '-f', configFile], { stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    let exited: string | undefined
    const exit = new Promise<void>((resolve) =>
      child.once('exit', (code, signal) => {
        exited = `haproxy exited (${code ?? signal}):\n${output}`
        resolve()
      }),
    )
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
        await exit
        clearTimeout(timer)
      }
    }
    const servers = async () => parseShowStat(await runtimeCommand(statsSocket, 'show stat'))
    const waitFor = (name: string, state: 'UP' | 'DOWN', bound = timeoutMs) =>
      until(
        `HAProxy did not see ${name} ${state}`,
        bound,
        50,
        async () => {
          const s = (await servers()).find((x) => x.name === name)
          if (s === undefined) throw new Error(`no server ${name}`)
          return (state === 'UP' ? isUp(s) : s.status === 'DOWN') ? s : undefined
        },
        () => exited,
      )
    try {
      // Up: the stats socket answers (HAProxy binds everything before it serves) and a server passed its check.
      await until(
        `HAProxy did not bring a server up (${backends.map((b) => b.url).join(', ')})`,
        timeoutMs,
        50,
        async () => ((await servers()).some(isUp) ? true : undefined),
        () => exited,
      )
    } catch (e) {
      await stop()
      if (exited !== undefined && /cannot bind|Address already in use/i.test(output)) {
        lastFailure = output
        continue
      }
      rmSync(dir, { recursive: true, force: true })
      throw e
    }
    return {
      url: `http://127.0.0.1:${port}`,
      configText,
      statsSocket,
      process: child,
      log: () => output,
      command: (line) => runtimeCommand(statsSocket, line),
      servers,
      waitFor,
      setServer: async (name, url) => {
        const u = new URL(url)
        const reply = await runtimeCommand(statsSocket, `set server ${HAPROXY_BACKEND}/${name} addr ${u.hostname} port ${u.port}`)
        if (!/changed|no need to change/i.test(reply)) throw new Error(`set server ${name} ${url}: ${reply}`)
      },
      stop: async () => {
        await stop()
        rmSync(dir, { recursive: true, force: true })
      },
    }
  }
  rmSync(dir, { recursive: true, force: true })
  throw new Error(`HAProxy could not bind a free port in 5 attempts:\n${lastFailure}`)
}
