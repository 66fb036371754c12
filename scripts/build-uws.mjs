// Builds the uWebSockets.js addon Sponge serves HTTP with, from the sources in vendor/uws (upstream, unmodified) plus
// Sponge's patches (vendor/uws/sponge/*.patch: HTTP/1.0 served, 400 before a parser-error close, the whole body offered
// to the route handler, replies read by their data pointer), without TLS or QUIC, on Node's own libuv, as upstream's
// build.c does for its release binaries. Run by `npm ci`/`npm install` (the package's `prepare`) and by `npm run
// build:uws`. The result: vendor/uws/build/uws_<platform>_<arch>_<abi>.node, loaded by src/rpc/uws.ts. A build whose
// inputs have not changed is kept (a stamp beside it).
//
// A failed build fails the install, loudly: the prebuilt binary from npm would serve, but would hang HTTP/1.0
// clients and drop requests without Host again, so the node would behave differently from machine to machine.
// SPONGE_UWS_PREBUILT=1 skips the build on a machine without a compiler; the node then runs on the prebuilt binary
// and says so at start (src/rpc/uws.ts).
import { execFileSync, spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../vendor/uws/', import.meta.url))
const outDir = join(root, 'build')
const name = `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`
const out = join(outDir, name)

if (process.env.SPONGE_UWS_PREBUILT === '1') {
  console.warn('build-uws: SPONGE_UWS_PREBUILT=1, not building; the node will serve on the prebuilt uWebSockets.js binary')
  process.exit(0)
}

function fail(message) {
  console.error(`\nbuild-uws: ${message}`)
  console.error('build-uws: Sponge builds its HTTP transport from vendor/uws (see vendor/uws/README.md); it needs a C/C++ compiler')
  console.error("build-uws: (cc, c++; CC/CXX to choose) and Node's headers. SPONGE_UWS_PREBUILT=1 skips this build and serves on")
  console.error('build-uws: the prebuilt binary instead, which never answers HTTP/1.0 clients.\n')
  process.exit(1)
}

/** Node's headers (v8.h, uv.h, node.h): npm's nodedir, else the include dir of the running node's prefix. */
function nodeHeaders() {
  const candidates = [process.env.npm_config_nodedir, join(dirname(process.execPath), '..')].filter(Boolean)
  for (const base of candidates) {
    const dir = join(base, 'include', 'node')
    if (['node.h', 'v8.h', 'uv.h'].every((f) => existsSync(join(dir, f)))) return dir
  }
  return fail(`Node's headers (node.h, v8.h, uv.h) not found under ${candidates.map((c) => join(c, 'include/node')).join(' or ')}`)
}

const cc = process.env.CC ?? 'cc'
const cxx = process.env.CXX ?? 'c++'
const headers = nodeHeaders()
const common = ['-DWIN32_LEAN_AND_MEAN', '-DLIBUS_USE_LIBUV', '-DLIBUS_NO_SSL', '-pthread', '-flto', '-O3', '-fPIC', '-c']
// The addon's own: PROXY protocol support as upstream builds it, and no `uWebSockets: 20` header in every reply (a
// server's name none of geth, reth or anvil sends; 17 bytes a reply for every client to read).
const addonFlags = ['-DUWS_WITH_PROXY', '-DUWS_HTTPRESPONSE_NO_WRITEMARK', '-DLIBUS_USE_QUIC', '-std=c++17']
const linkFlags = process.platform === 'darwin' ? ['-undefined', 'dynamic_lookup'] : ['-static-libstdc++', '-static-libgcc', '-s']

function files(dir, ext) {
  return readdirSync(dir)
    .filter((f) => f.endsWith(ext))
    .map((f) => join(dir, f))
}

function treeHash(dir, hash) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    // The output, and the README (documentation changes need no rebuild).
    if (entry.name === 'build' || entry.name === 'README.md') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) treeHash(path, hash)
    else hash.update(path.slice(root.length)).update(readFileSync(path))
  }
  return hash
}

const stamp = treeHash(root, createHash('sha256'))
  .update(JSON.stringify([cc, cxx, headers, common, addonFlags, linkFlags, process.version, process.arch]))
  .digest('hex')
const stampFile = `${out}.stamp`
if (existsSync(out) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
  console.log(`build-uws: ${name} is up to date`)
  process.exit(0)
}

// A failed build must not leave the last one to be loaded as if it were this one.
rmSync(out, { force: true })
rmSync(stampFile, { force: true })
// Patch a copy: vendor/uws keeps upstream's files as released.
const work = join(outDir, 'work')
rmSync(work, { recursive: true, force: true })
mkdirSync(work, { recursive: true })
for (const part of ['uSockets', 'uWebSockets', 'uWebSockets.js']) cpSync(join(root, part), join(work, part), { recursive: true })
for (const patch of files(join(root, 'sponge'), '.patch').sort()) {
  try {
    execFileSync('patch', ['-p1', '--batch', '--forward', '-d', work, '-i', patch], { stdio: ['ignore', 'ignore', 'inherit'] })
  } catch (e) {
    fail(`applying ${patch} failed: ${e.message}`)
  }
}

const us = join(work, 'uSockets/src')
const uws = join(work, 'uWebSockets/src')
const jobs = [
  // uSockets as upstream compiles it (TLS and QUIC sources compile to nothing without their defines).
  ...[...files(us, '.c'), ...files(join(us, 'eventing'), '.c'), ...files(join(us, 'crypto'), '.c')].map((src) => [
    cc,
    [...common, '-I', us, '-I', headers, src],
  ]),
  // quic.h declares the QUIC functions only with LIBUS_USE_QUIC: the addon's H3 code and their stand-ins need it.
  [cc, [...common, '-DLIBUS_USE_QUIC', '-I', us, join(root, 'sponge/quicAbsent.c')]],
  [cxx, [...common, ...addonFlags, '-I', us, '-I', uws, '-I', headers, join(work, 'uWebSockets.js/src/addon.cpp')]],
]

function run(cmd, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] })
    child.on('error', (e) => reject(new Error(`${cmd}: ${e.message}`)))
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.at(-1)}: exit ${code ?? signal}`))))
  })
}

/** Runs the jobs, `parallel` at a time; the slowest (addon.cpp) first, so it does not start last. */
async function runAll(list, parallel) {
  const queue = [...list].reverse()
  const worker = async () => {
    for (let job = queue.shift(); job !== undefined; job = queue.shift()) await run(job[0], job[1], work)
  }
  await Promise.all(Array.from({ length: parallel }, worker))
}

const started = Date.now()
const parallel = Math.max(1, availableParallelism())
console.log(`build-uws: building ${name} from vendor/uws (${jobs.length} sources, ${parallel} at a time)`)
try {
  await runAll(jobs, parallel)
  const objects = readdirSync(work)
    .filter((f) => f.endsWith('.o'))
    .map((f) => join(work, f))
  const tmp = join(outDir, `${name}.tmp`)
  await run(cxx, ['-pthread', '-flto=auto', '-O3', '-std=c++17', '-shared', ...objects, ...linkFlags, '-o', tmp], work)
  renameSync(tmp, out)
} catch (e) {
  fail(e.message)
}
writeFileSync(stampFile, stamp)
rmSync(work, { recursive: true, force: true })
console.log(`build-uws: built ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
