import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { compileFunction, type Context, createContext, runInContext } from 'node:vm'

// mcl-wasm (herumi's mcl compiled to WASM) runs the curve arithmetic of BN254, BLS12-381 and P-256: measured 3-20×
// faster than @noble/curves here, and faster than rustbn-wasm for BN254 (docs/performance.md, EVM precompiles).

export type Mcl = typeof import('mcl-wasm')
export type Fp = InstanceType<Mcl['Fp']>
export type Fp2 = InstanceType<Mcl['Fp2']>
export type Fr = InstanceType<Mcl['Fr']>
export type G1 = InstanceType<Mcl['G1']>
export type G2 = InstanceType<Mcl['G2']>

/** Node's WebAssembly global, which @types/node 20 does not declare: the one use made of it here. */
declare const WebAssembly: { Module: new (bytes: Uint8Array) => object }

const DIST = dirname(createRequire(import.meta.url).resolve('mcl-wasm'))
/** The WASM's base64 literal in mcl_c.js, which decodes it (atob, then a callback per byte: 150 ms) on every init. */
const WASM_LITERAL = /const wasmBase64 = '([A-Za-z0-9+/=]+)'/

/** The package's files, read once per thread: mcl_c.js without its WASM, which is compiled once here instead. */
let unpacked: { wasm: object; sources: Map<string, string> } | undefined

function unpack(): NonNullable<typeof unpacked> {
  if (unpacked !== undefined) return unpacked
  const sources = new Map<string, string>()
  for (const name of ['index', 'constants', 'getRandomValues', 'mcl', 'value-types', 'mcl_c']) {
    sources.set(name, readFileSync(join(DIST, `${name}.js`), 'utf8'))
  }
  const glue = sources.get('mcl_c')!
  const base64 = WASM_LITERAL.exec(glue)?.[1]
  if (base64 === undefined) throw new Error('mcl-wasm: mcl_c.js holds no WASM literal where expected (a new version must be looked at again)')
  sources.set('mcl_c', glue.replace(WASM_LITERAL, "const wasmBase64 = ''"))
  unpacked = { wasm: new WebAssembly.Module(Buffer.from(base64, 'base64')), sources }
  return unpacked
}

/**
 * The globals the package's files use but WebAssembly, which they see as this thread's, passed as parameters: the
 * context's own Uint8Array would fail the package's `instanceof Uint8Array` on the bytes callers pass (and callers'
 * checks on the bytes it returns), and a global looked up in a context goes through its interceptor, slowly.
 */
const REALM_GLOBALS = { Uint8Array, Uint32Array, Int8Array, Int32Array, ArrayBuffer, Array, Object, String, Number, BigInt, Error, JSON, parseInt }

/** Runs the package's CommonJS files in `context`: its own module objects, its own state. */
function requireIn(context: Context, sources: Map<string, string>): (name: string) => unknown {
  const loaded = new Map<string, { exports: unknown }>()
  const load = (name: string): unknown => {
    const file = name.replace(/^\.\//, '').replace(/\.js$/, '')
    const source = sources.get(file)
    if (source === undefined) throw new Error(`mcl-wasm: ${name} is not one of its files we load`)
    let module = loaded.get(file)
    if (module === undefined) {
      module = { exports: runInContext('({})', context) as unknown }
      loaded.set(file, module)
      const body = compileFunction(source, ['exports', 'require', 'module', ...Object.keys(REALM_GLOBALS)], {
        parsingContext: context,
        filename: join(DIST, `${file}.js`),
      })
      body(module.exports, load, module, ...Object.values(REALM_GLOBALS))
    }
    return module.exports
  }
  return load
}

/**
 * A fresh mcl set up for one curve, loaded synchronously: the EVM calls a precompile in the middle of a call and
 * cannot wait, and a thread that never runs one of a curve's precompiles never pays for it (three curves cost ~0.5 s
 * and ~25 MiB of a node's RSS per thread when every thread loaded them at import). mcl keeps its curve in module
 * state, so each curve gets its own copy of the package, evaluated in its own V8 context. mcl's init is async only
 * because WebAssembly.instantiate is; inside the context, instantiate resolves with an instance of the module compiled
 * once per thread, and the context runs its microtasks before runInContext returns (microtaskMode 'afterEvaluate'), so
 * the init has finished when this returns: 20–70 ms a curve here.
 * Subgroup checks are left to the callers (isValidOrder), which need them for some operations and not others.
 */
export function loadMcl(curve: (mcl: Mcl) => number): Mcl {
  const { wasm, sources } = unpack()
  const context = createContext({ atob, crypto: globalThis.crypto, console }, { microtaskMode: 'afterEvaluate' })
  runInContext(
    'WebAssembly.instantiate = (bytes, imports) => Promise.resolve({ instance: new WebAssembly.Instance(wasm, imports), module: wasm })',
    Object.assign(context, { wasm }),
  )
  const mcl = requireIn(context, sources)('index') as Mcl
  const outcome: { error?: unknown; done?: boolean } = {}
  Object.assign(context, { mcl, curve: curve(mcl), outcome })
  runInContext('mcl.init(curve).then(() => { outcome.done = true }, (e) => { outcome.error = e })', context)
  if (outcome.error !== undefined) throw outcome.error
  if (outcome.done !== true) throw new Error('mcl-wasm: init did not finish synchronously')
  mcl.verifyOrderG1(false)
  mcl.verifyOrderG2(false)
  curvesLoaded++
  return mcl
}

let curvesLoaded = 0

/** How many curves this thread has loaded (tests: the precompiles load theirs on first use, not at import). */
export function loadedCurves(): number {
  return curvesLoaded
}

/**
 * `setup(mcl)` for `curve`, run the first time the returned function is called: a precompile calls it before it
 * touches the curve, so the curve is loaded by the thread's first call of one of its precompiles.
 */
export function curveOnFirstUse(curve: (mcl: Mcl) => number, setup: (mcl: Mcl) => void): () => void {
  let ready = false
  return () => {
    if (ready) return
    setup(loadMcl(curve))
    ready = true
  }
}
