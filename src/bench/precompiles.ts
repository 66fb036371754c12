import { createHash } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { type EVMInterface, getActivePrecompiles, NobleBLS, NobleBN254, paramsEVM } from '@ethereumjs/evm'
import { bls12_381 } from '@noble/curves/bls12-381.js'
import { bn254 } from '@noble/curves/bn254.js'
import { p256 } from '@noble/curves/nist.js'
import { ripemd160 as nobleRipemd160 } from '@noble/hashes/legacy.js'
import { Bench } from 'tinybench'
import { Fork } from '../chain/evmFork.js'
import { blake2f } from '../evm/precompiles/blake2f.js'
import { blsG1Add, blsG1Msm, blsG2Msm, blsMapFp2ToG2, blsPairingCheck } from '../evm/precompiles/bls12381.js'
import { bn254Add, bn254Mul, bn254Pairing } from '../evm/precompiles/bn254.js'
import { ecrecover } from '../evm/precompiles/ecrecover.js'
import { modexp } from '../evm/precompiles/modexp.js'
import { p256Verify } from '../evm/precompiles/p256verify.js'
import { ripemd160 } from '../evm/precompiles/ripemd160.js'
import { REPO_ROOT } from '../testing/paths.js'
import { hexToBytes } from '../util/hex.js'

// `npm run bench:precompiles`: each precompile Sponge's EVM runs beside the candidates it was chosen over, on
// representative inputs: EthereumJS's own backends (@noble/curves for BN254, BLS12-381 and P-256; its JS modexp and
// BLAKE2f), @noble/hashes and node:crypto for RIPEMD-160, and rustbn-wasm for BN254 when it is installed
// (`npm i --no-save rustbn-wasm@0.4.0`: not a dependency). Prints a table and writes bench/results/precompiles.json.

const time = Number(process.env.BENCH_MS ?? 1000)
const bench = new Bench({ time, warmup: true })
const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint, bytes = 32): string => n.toString(16).padStart(2 * bytes, '0')
const SCALAR = 0x1234567890abcdef1234567890abcdef1234567890abcdef1234567890abcdefn
const GAS = 1_000_000_000

// BN254: G1 points as x ‖ y, G2 points imaginary part first.
type BnG1 = ReturnType<typeof bn254.G1.Point.BASE.toAffine>
type BnG2 = ReturnType<typeof bn254.G2.Point.BASE.toAffine>
const bnG1 = (p: BnG1): string => word(p.x) + word(p.y)
const bnG2 = (p: BnG2): string => word(p.x.c1) + word(p.x.c0) + word(p.y.c1) + word(p.y.c0)
const bnP = bn254.G1.Point.BASE.multiply(7n)
const bnQ = bn254.G2.Point.BASE.multiply(5n).toAffine()
const bnAddInput = hex(bnG1(bnP.toAffine()) + bnG1(bn254.G1.Point.BASE.multiply(11n).toAffine()))
const bnMulInput = hex(bnG1(bnP.toAffine()) + word(SCALAR))
const bnPairingInput = hex(bnG1(bnP.toAffine()) + bnG2(bnQ) + bnG1(bnP.negate().toAffine()) + bnG2(bnQ))

// BLS12-381: 64-byte field elements, Fp2 as c0 ‖ c1.
type BlsG1 = ReturnType<typeof bls12_381.G1.Point.BASE.toAffine>
type BlsG2 = ReturnType<typeof bls12_381.G2.Point.BASE.toAffine>
const fp = (n: bigint): string => word(n, 64)
const blsG1 = (p: BlsG1): string => fp(p.x) + fp(p.y)
const blsG2 = (p: BlsG2): string => fp(p.x.c0) + fp(p.x.c1) + fp(p.y.c0) + fp(p.y.c1)
const G1 = bls12_381.G1.Point.BASE
const G2 = bls12_381.G2.Point.BASE
const g1Msm = (k: number): Uint8Array =>
  hex(Array.from({ length: k }, (_, i) => blsG1(G1.multiply(BigInt(1000 * i + 3)).toAffine()) + word(SCALAR + BigInt(i))).join(''))
const g2Msm = (k: number): Uint8Array =>
  hex(Array.from({ length: k }, (_, i) => blsG2(G2.multiply(BigInt(1000 * i + 3)).toAffine()) + word(SCALAR + BigInt(i))).join(''))
const blsAddInput = hex(blsG1(G1.multiply(3n).toAffine()) + blsG1(G1.multiply(5n).toAffine()))
const blsPairingInput = hex(
  blsG1(G1.multiply(11n).toAffine()) + blsG2(G2.toAffine()) + blsG1(G1.multiply(11n).negate().toAffine()) + blsG2(G2.toAffine()),
)
const mapFp2Input = hex(fp(0x1234567890n) + fp(0x987654321n))
const [msm2, msm32, g2msm2] = [g1Msm(2), g1Msm(32), g2Msm(2)]

const nobleBn = new NobleBN254()
const nobleBls = new NobleBLS()
bench.add('BN254 add: mcl-wasm (chosen)', () => bn254Add(bnAddInput, GAS))
bench.add('BN254 add: EthereumJS (noble)', () => nobleBn.add(bnAddInput))
bench.add('BN254 mul: mcl-wasm (chosen)', () => bn254Mul(bnMulInput, GAS))
bench.add('BN254 mul: EthereumJS (noble)', () => nobleBn.mul(bnMulInput))
bench.add('BN254 pairing, 2 pairs: mcl-wasm (chosen)', () => bn254Pairing(bnPairingInput, GAS))
bench.add('BN254 pairing, 2 pairs: EthereumJS (noble)', () => nobleBn.pairing(bnPairingInput))

interface RustBn {
  ec_add(input: string): string
  ec_mul(input: string): string
  ec_pairing(input: string): string
}
const rustbnName = 'rustbn-wasm'
const rustbnModule = (await import(rustbnName).catch(() => undefined)) as { initRustBN(): Promise<RustBn> } | undefined
if (rustbnModule !== undefined) {
  const rustbn = await rustbnModule.initRustBN()
  const toHex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
  // Hex in, 0x-prefixed hex out, as EthereumJS's RustBN254 wraps it.
  bench.add('BN254 add: rustbn-wasm', () => hexToBytes(rustbn.ec_add(toHex(bnAddInput))))
  bench.add('BN254 mul: rustbn-wasm', () => hexToBytes(rustbn.ec_mul(toHex(bnMulInput))))
  bench.add('BN254 pairing, 2 pairs: rustbn-wasm', () => hexToBytes(rustbn.ec_pairing(toHex(bnPairingInput))))
}

bench.add('BLS G1ADD: mcl-wasm (chosen)', () => blsG1Add(blsAddInput, GAS))
bench.add('BLS G1ADD: EthereumJS (noble)', () => nobleBls.addG1(blsAddInput))
bench.add('BLS G1MSM, 2 pairs: mcl-wasm (chosen)', () => blsG1Msm(msm2, GAS))
bench.add('BLS G1MSM, 2 pairs: EthereumJS (noble)', () => nobleBls.msmG1(msm2))
bench.add('BLS G1MSM, 32 pairs: mcl-wasm (chosen)', () => blsG1Msm(msm32, GAS))
bench.add('BLS G1MSM, 32 pairs: EthereumJS (noble)', () => nobleBls.msmG1(msm32))
bench.add('BLS G2MSM, 2 pairs: mcl-wasm (chosen)', () => blsG2Msm(g2msm2, GAS))
bench.add('BLS G2MSM, 2 pairs: EthereumJS (noble)', () => nobleBls.msmG2(g2msm2))
bench.add('BLS PAIRING_CHECK, 2 pairs: mcl-wasm (chosen)', () => blsPairingCheck(blsPairingInput, GAS))
bench.add('BLS PAIRING_CHECK, 2 pairs: EthereumJS (noble)', () => nobleBls.pairingCheck(blsPairingInput))
bench.add('BLS MAP_FP2_TO_G2: mcl-wasm (chosen)', () => blsMapFp2ToG2(mapFp2Input, GAS))
bench.add('BLS MAP_FP2_TO_G2: EthereumJS (noble)', () => nobleBls.mapFP2toG2(mapFp2Input))

// P-256: a signature made by noble over a fixed key and hash.
const secret = hex(word(0xc0ffeen))
const hash = hex(word(0xabcdefn))
const signature = p256.sign(hash, secret, { prehash: false })
const publicKey = p256.getPublicKey(secret, false)
const p256Input = hex(Buffer.from(hash).toString('hex') + Buffer.from(signature).toString('hex') + Buffer.from(publicKey.subarray(1)).toString('hex'))
bench.add('P256VERIFY: mcl-wasm (chosen)', () => p256Verify(p256Input, GAS))
bench.add('P256VERIFY: @noble/curves (EthereumJS)', () => p256.verify(signature, hash, publicKey, { prehash: false, lowS: false }))

for (const size of [32, 1024]) {
  const data = new Uint8Array(size).fill(3)
  bench.add(`RIPEMD-160 ${size} B: hash-wasm (chosen)`, () => ripemd160(data, GAS))
  bench.add(`RIPEMD-160 ${size} B: @noble/hashes`, () => nobleRipemd160(data))
  bench.add(`RIPEMD-160 ${size} B: node:crypto`, () => createHash('ripemd160').update(data).digest())
}

// EthereumJS's own MODEXP and BLAKE2f (plain JS, like ours) on the same inputs.
const common = new Common({ chain: Mainnet, hardfork: Hardfork.Osaka, params: paramsEVM })
const ejs = getActivePrecompiles(common)
const runEjs = (address: string, data: Uint8Array): unknown =>
  ejs.get(address.padStart(40, '0'))!({ data, gasLimit: BigInt(GAS), common, _EVM: {} as EVMInterface })
const base = SCALAR * SCALAR * SCALAR * SCALAR
const modexpInput = hex(`${word(128n) + word(3n) + word(128n) + word(base, 128)}010001${word(base * 7n + 1n, 128)}`) // RSA-1024 verify
const modexpLongInput = hex(word(32n) + word(32n) + word(32n) + word(SCALAR) + word(SCALAR) + word(2n ** 255n - 19n))
bench.add('MODEXP 1024-bit base and modulus, e = 65537: ours (chosen)', () => modexp(modexpInput, GAS, Fork.osaka))
bench.add('MODEXP 1024-bit base and modulus, e = 65537: EthereumJS', () => runEjs('05', modexpInput))
bench.add('MODEXP 256-bit, 256-bit exponent: ours (chosen)', () => modexp(modexpLongInput, GAS, Fork.osaka))
bench.add('MODEXP 256-bit, 256-bit exponent: EthereumJS', () => runEjs('05', modexpLongInput))
const blakeInput = new Uint8Array(213)
blakeInput[3] = 12
blakeInput[212] = 1
bench.add('BLAKE2f 12 rounds: ours (chosen)', () => blake2f(blakeInput, GAS))
bench.add('BLAKE2f 12 rounds: EthereumJS', () => runEjs('09', blakeInput))
const recoverInput = hex(
  '18c547e4f7b0f325ad1e56f57e26c745b09a3e503d86e00e5255ff7f715d3d1c000000000000000000000000000000000000000000000000000000000000001c73b1693892219d736caba55bdb67216e485557ea6b6af75f37096c9aa6a5a75feeb940b1d03b21e36b0e47e79769f095fe2ab855bd91e3a38756b7d75a9c4549',
)
bench.add('ECRECOVER: native secp256k1 (chosen)', () => ecrecover(recoverInput, GAS))

await bench.run()
// Medians: on a shared machine a neighbour's burst drags a mean far more than a median.
const rows = bench.tasks.map((t) => {
  const res = t.result as { latency?: { p50?: number }; error?: unknown } | undefined
  const median = res?.latency?.p50 ?? 0
  return { name: t.name, medianMicros: Number((median * 1000).toFixed(1)), opsPerSec: median > 0 ? Math.round(1000 / median) : 0 }
})
console.table(rows)
const out = join(REPO_ROOT, 'bench', 'results')
mkdirSync(out, { recursive: true })
writeFileSync(join(out, 'precompiles.json'), `${JSON.stringify({ node: process.version, date: new Date().toISOString(), rows }, null, 2)}\n`)
