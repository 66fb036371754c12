import { bls12_381 } from '@noble/curves/bls12-381.js'
import { bn254 } from '@noble/curves/bn254.js'
import { Fork } from '../chain/evmFork.js'
import { hexToBytes } from '../util/hex.js'
import type { Random } from './evmRandom.js'

// The EVM fuzzer's programs: a contract's code is a list of actions — storage, transient storage, memory, logs, the
// environment, calls of every kind with their input laid out in memory, creates with generated init code, returns,
// reverts and self-destructs — each assembled into bytecode that pushes its operands and runs its opcode, its result
// kept (in storage, memory or a log) so that a difference shows in the state root or the logs. Programs run forward
// only (a conditional jump skips ahead, never back): a case's run time is bounded by its calls, not by loops. Actions
// are data, so a disagreeing case shrinks by dropping them.

/** Where an action's result goes. */
export type Sink = { to: 'pop' } | { to: 'storage'; slot: bigint } | { to: 'memory'; offset: bigint }

export type Action =
  | { kind: 'bytes'; bytes: readonly number[] }
  | { kind: 'sstore'; slot: bigint; value: bigint }
  | { kind: 'sload'; slot: bigint; sink: Sink }
  | { kind: 'tstore'; slot: bigint; value: bigint }
  | { kind: 'tload'; slot: bigint; sink: Sink }
  | { kind: 'mstore'; offset: bigint; value: bigint }
  | { kind: 'op'; opcode: number; args: readonly bigint[]; sink: Sink }
  | { kind: 'log'; topics: readonly bigint[]; offset: bigint; size: bigint }
  | { kind: 'copy'; opcode: number; target: bigint; memOffset: bigint; offset: bigint; size: bigint }
  | {
      kind: 'call'
      opcode: number
      target: bigint
      /** undefined: all there is (GAS). */
      gas: bigint | undefined
      value: bigint
      input: Uint8Array
      inOffset: bigint
      outOffset: bigint
      outSize: bigint
      sink: Sink
    }
  | { kind: 'create'; opcode: number; value: bigint; init: Uint8Array; offset: bigint; salt: bigint; sink: Sink }
  | { kind: 'skip'; condition: bigint; inner: readonly Action[] }
  | { kind: 'end'; how: 'stop' | 'return' | 'revert' | 'invalid' | 'selfdestruct'; offset: bigint; size: bigint; beneficiary: bigint }

// --- the world the programs name

/** The contracts of a case, at fixed addresses, and the accounts calls aim at. */
export const CONTRACTS: readonly bigint[] = [0xc0de0001n, 0xc0de0002n, 0xc0de0003n, 0xc0de0004n]
/** An account in the state with nothing in it (EIP-161's empty account). */
export const EMPTY = 0xe3e3e3e3n
/** An account the state does not have. */
export const MISSING = 0xdeadn
const PRECOMPILES: readonly bigint[] = [...Array.from({ length: 0x11 }, (_, i) => BigInt(i + 1)), 0x100n]

/** The forks each opcode the programs use came in (the rest are Frontier's). */
const SINCE: Readonly<Record<number, Fork>> = {
  0x1b: Fork.constantinople,
  0x1c: Fork.constantinople,
  0x1d: Fork.constantinople,
  0x1e: Fork.osaka,
  0x3d: Fork.byzantium,
  0x3e: Fork.byzantium,
  0x3f: Fork.constantinople,
  0x46: Fork.istanbul,
  0x47: Fork.istanbul,
  0x48: Fork.london,
  0x49: Fork.cancun,
  0x4a: Fork.cancun,
  0x5c: Fork.cancun,
  0x5d: Fork.cancun,
  0x5e: Fork.cancun,
  0x5f: Fork.shanghai,
  0xf4: Fork.homestead,
  0xf5: Fork.constantinople,
  0xfa: Fork.byzantium,
  0xfd: Fork.byzantium,
}

/** Whether `fork` has the opcode (of those the programs use). */
export const has = (fork: Fork, opcode: number): boolean => fork >= (SINCE[opcode] ?? Fork.frontier)

const BINARY = [0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x0a, 0x0b, 0x10, 0x11, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1d]
const UNARY = [0x15, 0x19, 0x1e, 0x35]
const TERNARY = [0x08, 0x09]
const ENVIRONMENT = [0x30, 0x32, 0x33, 0x34, 0x36, 0x38, 0x3a, 0x3d, 0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x4a, 0x58, 0x59, 0x5a]

// --- precompile inputs: valid ones (from the precompiles' own tests and known vectors), edges and noise

const hex = (h: string): Uint8Array => hexToBytes(`0x${h}`)
const word = (n: bigint): string => n.toString(16).padStart(64, '0')
const ECRECOVER_VALID = hex(
  `18c547e4f7b0f325ad1e56f57e26c745b09a3e503d86e00e5255ff7f715d3d1c${'00'.repeat(31)}1c73b1693892219d736caba55bdb67216e485557ea6b6af75f37096c9aa6a5a75feeb940b1d03b21e36b0e47e79769f095fe2ab855bd91e3a38756b7d75a9c4549`,
)
const KZG_VALID = hex(
  '01e798154708fe7789429634053cbf9f99b619f9f084048927333fce637f549b564c0a11a0f704f4fc3e8acfe0f8245f0ad1347b378fbf96e206da11a5d3630624d25032e67a7e6a4910df5834b8fe70e6bcfeeac0352434196bdf4b2485d5a18f59a8d2a1a625a17f3fea0fe5eb8c896db3764f3185481bc22f91b4aaffcca25f26936857bc3a7c2539ea8ec3a952b7873033e038326e87ed3e1276fd140253fa08e9fc25fb2d9a98527fc22a2c9612fbeafdad446cbc7bcdbdcd780af2c16a',
)
const P256_VALID = hex(
  '4cee90eb86eaa050036147a12d49004b6b9c72bd725d39d4785011fe190f0b4da73bd4903f0ce3b639bbbf6e8e80d16931ff4bcf5993d58468e8fb19086e8cac36dbcd03009df8c59286b162af3bd7fcc0450c9aa81be5d10d312af6c66b1d604aebd3099c618202fcfe16ae7770b0c49ab5eadf74b754204a3bb6060e44eff37618b065f9832de4ca6ca971a7a1adc826d0f7c00181a5fb2ddf79ae00b4e10e',
)
const BLAKE2F_BODY =
  '48c9bdf267e6096a3ba7ca8485ae67bb2bf894fe72f36e3cf1361d5f3af54fa5d182e6ad7f520e511f6c3e2b8c68059b6bbd41fbabd9831f79217e1319cde05b' +
  `616263${'00'.repeat(125)}03${'00'.repeat(15)}`
const bnG1 = (k: bigint): string => {
  const p = bn254.G1.Point.BASE.multiply(k).toAffine()
  return word(p.x) + word(p.y)
}
const bnG2 = (k: bigint): string => {
  const p = bn254.G2.Point.BASE.multiply(k).toAffine()
  return word(p.x.c1) + word(p.x.c0) + word(p.y.c1) + word(p.y.c0)
}
const fp = (n: bigint): string => n.toString(16).padStart(128, '0')
const blsG1 = (k: bigint): string => {
  const p = bls12_381.G1.Point.BASE.multiply(k).toAffine()
  return fp(p.x) + fp(p.y)
}
const blsG2 = (k: bigint): string => {
  const p = bls12_381.G2.Point.BASE.multiply(k).toAffine()
  return fp(p.x.c0) + fp(p.x.c1) + fp(p.y.c0) + fp(p.y.c1)
}
const BN_NEG_G1 = (() => {
  const p = bn254.G1.Point.BASE.multiply(6n).negate().toAffine()
  return word(p.x) + word(p.y)
})()
const PRECOMPILE_INPUTS: Readonly<Record<number, readonly (() => Uint8Array)[]>> = {
  1: [() => ECRECOVER_VALID, () => ECRECOVER_VALID.slice(0, 100)],
  5: [
    () => hex(`${word(1n) + word(1n) + word(1n)}020305`),
    () => hex(`${word(2n) + word(3n) + word(2n)}0102ff030405ff`),
    () => hex(word(0n) + word(40n) + word(0n)),
    () => hex(`${word(1n) + word(33n) + word(1n)}03${'ff'.repeat(33)}07`),
    () => hex(word(1n) + word(1n) + word(1n)),
  ],
  6: [() => hex(bnG1(2n) + bnG1(3n)), () => hex(bnG1(1n)), () => hex(word(1n) + word(3n) + bnG1(1n))],
  7: [() => hex(bnG1(5n) + word(7n)), () => hex(`${bnG1(1n)}ff`)],
  8: [() => hex(bnG1(2n) + bnG2(3n) + BN_NEG_G1 + bnG2(1n)), () => hex(bnG1(1n) + bnG2(1n)), () => hex('00'.repeat(191))],
  9: [() => hex(`0000000c${BLAKE2F_BODY}01`), () => hex(`00000001${BLAKE2F_BODY}00`), () => hex(`00000002${BLAKE2F_BODY}02`)],
  10: [() => KZG_VALID, () => KZG_VALID.slice(1)],
  11: [() => hex(blsG1(2n) + blsG1(3n))],
  12: [() => hex(blsG1(1n) + word(9n))],
  13: [() => hex(blsG2(1n) + blsG2(2n))],
  14: [() => hex(blsG2(1n) + word(3n))],
  15: [() => hex(blsG1(1n) + blsG2(1n))],
  16: [() => hex(fp(5n))],
  17: [() => hex(fp(5n) + fp(7n))],
  0x100: [() => P256_VALID],
}

/** The known inputs, each computed once (the curve points take milliseconds each). */
const knownInputs = new Map<number, readonly Uint8Array[]>()

function precompileInput(r: Random, address: bigint): Uint8Array {
  const makers = PRECOMPILE_INPUTS[Number(address)]
  let known = knownInputs.get(Number(address))
  if (known === undefined && makers !== undefined) {
    known = makers.map((make) => make())
    knownInputs.set(Number(address), known)
  }
  if (known !== undefined && r.chance(0.7)) {
    const input = r.pick(known).slice()
    if (r.chance(0.2) && input.length > 0) input[r.int(input.length)] = r.int(256) // a flipped byte
    return input
  }
  return r.bytes(r.pick([0, 1, 32, 64, 96, 128, 160, 192, 213, r.int(300)]))
}

// --- generating

/** What a program may name: the case's addresses and whether its calls must carry bounded gas. */
export interface ProgramWorld {
  fork: Fork
  /** EOAs (the sender, the EIP-7702 authorities), the coinbase. */
  others: readonly bigint[]
  /**
   * A transaction's gas is huge (past 2^53): calls carry explicit gas of at most a million, never "all there is"
   * (passing everything on would recurse 1,024 deep many times over), and memory stays small (a frame could pay for
   * gigabytes, which EthereumJS would try to allocate).
   */
  huge: boolean
}

function sink(r: Random): Sink {
  const n = r.int(10)
  if (n < 2) return { to: 'pop' }
  if (n < 7) return { to: 'storage', slot: BigInt(0x100 + r.int(32)) }
  return { to: 'memory', offset: BigInt(r.int(8) * 32) }
}

function target(r: Random, w: ProgramWorld): bigint {
  switch (r.int(6)) {
    case 0:
    case 1:
      return r.pick(CONTRACTS)
    case 2:
      return r.pick(PRECOMPILES)
    case 3:
      return r.pick([EMPTY, MISSING])
    case 4:
      return r.pick(w.others)
    default:
      return r.chance(0.5) ? r.pick(CONTRACTS) : r.word(20)
  }
}

function memoryOffset(r: Random, w: ProgramWorld): bigint {
  return w.huge || r.chance(0.98) ? BigInt(r.int(1024)) : r.pick([0xffffffffn, 1n << 32n, (1n << 256n) - 1n, 30_000_000n])
}

function size(r: Random, w: ProgramWorld): bigint {
  return w.huge || r.chance(0.97) ? BigInt(r.pick([0, 1, 20, 32, 64, r.int(200)])) : r.pick([0xffffffffn, (1n << 256n) - 1n, 100_000n])
}

function value(r: Random): bigint {
  return r.pick([0n, 0n, 0n, 1n, BigInt(r.int(1000)), 10n ** 18n, (1n << 256n) - 1n])
}

/** Init code: a short program that returns runtime code (itself a program, or odd bytes: 0xef first, too long). */
export function initCode(r: Random, w: ProgramWorld, depth: number): Uint8Array {
  const body = program(r, w, depth + 1, r.int(4))
  let runtime: Uint8Array
  const shape = r.int(10)
  if (shape < 5) runtime = assemble(program(r, w, depth + 1, r.int(6)), w.fork)
  else if (shape < 7) runtime = r.bytes(r.int(40))
  else if (shape < 8) runtime = Uint8Array.of(0xef, ...r.bytes(r.int(4)))
  else runtime = new Uint8Array()
  const deploy: Action[] = []
  for (let i = 0; i < runtime.length; i += 32) {
    const chunk = new Uint8Array(32)
    chunk.set(runtime.subarray(i, i + 32))
    deploy.push({ kind: 'mstore', offset: BigInt(i), value: BigInt(`0x${Buffer.from(chunk).toString('hex')}`) })
  }
  // Now and then a deposit past EIP-170's limit (memory beyond the runtime reads as zeros).
  const length = r.chance(0.05) ? 24577n : BigInt(runtime.length)
  const end: Action =
    r.chance(0.85) || !has(w.fork, 0xfd)
      ? { kind: 'end', how: 'return', offset: 0n, size: length, beneficiary: 0n }
      : { kind: 'end', how: 'revert', offset: 0n, size: length, beneficiary: 0n }
  return assemble([...body, ...deploy, end], w.fork)
}

/** `count` actions (and maybe an end) for code at call depth `depth` of the generator (creates nest at most twice). */
export function program(r: Random, w: ProgramWorld, depth: number, count: number): Action[] {
  const fork = w.fork
  const out: Action[] = []
  for (let i = 0; i < count; i++) {
    const n = r.int(100)
    if (n < 14) out.push({ kind: 'sstore', slot: BigInt(r.int(4)), value: r.pick([0n, 0n, 1n, 2n, r.value()]) })
    else if (n < 20) out.push({ kind: 'sload', slot: BigInt(r.int(4)), sink: sink(r) })
    else if (n < 24 && has(fork, 0x5c))
      out.push(
        r.chance(0.5) ? { kind: 'tstore', slot: BigInt(r.int(3)), value: r.value() } : { kind: 'tload', slot: BigInt(r.int(3)), sink: sink(r) },
      )
    else if (n < 28) out.push({ kind: 'mstore', offset: r.chance(0.95) ? BigInt(r.int(512)) : memoryOffset(r, w), value: r.value() })
    else if (n < 38) {
      const group = r.int(3)
      const opcode = r.pick(group === 0 ? BINARY : group === 1 ? UNARY : TERNARY)
      if (!has(fork, opcode)) continue
      // Small operands now and then, so that shifts, BYTE, SIGNEXTEND and CALLDATALOAD land inside their range.
      const args = Array.from({ length: group === 0 ? 2 : group === 1 ? 1 : 3 }, () => (r.chance(0.3) ? BigInt(r.int(40)) : r.value()))
      out.push({ kind: 'op', opcode, args, sink: sink(r) })
    } else if (n < 46) {
      const opcode = r.pick(ENVIRONMENT)
      if (has(fork, opcode)) out.push({ kind: 'op', opcode, args: [], sink: sink(r) })
    } else if (n < 52) {
      const opcode = r.pick([0x31, 0x3b, 0x3f])
      if (has(fork, opcode)) out.push({ kind: 'op', opcode, args: [target(r, w)], sink: sink(r) })
    } else if (n < 55) {
      const opcode = r.pick([0x37, 0x39, 0x3c, 0x3e, 0x5e])
      if (has(fork, opcode))
        out.push({ kind: 'copy', opcode, target: target(r, w), memOffset: memoryOffset(r, w), offset: BigInt(r.int(100)), size: size(r, w) })
    } else if (n < 61) {
      const topics = Array.from({ length: r.int(5) }, () => r.value())
      out.push({ kind: 'log', topics, offset: memoryOffset(r, w), size: size(r, w) })
    } else if (n < 79) {
      const opcode = r.pick([0xf1, 0xf1, 0xf2, 0xf4, 0xfa])
      if (!has(fork, opcode)) continue
      const to = target(r, w)
      const isPrecompile = to <= 0x100n && to > 0n
      const input = isPrecompile ? precompileInput(r, to) : r.bytes(r.pick([0, 4, 36, r.int(100)]))
      const gas = w.huge || r.chance(0.7) ? BigInt(r.pick([0, 100, 2300, 5000, 30000, 100_000, 1_000_000])) : undefined
      out.push({
        kind: 'call',
        opcode,
        target: to,
        gas,
        value: opcode === 0xf1 || opcode === 0xf2 ? value(r) : 0n,
        input,
        inOffset: BigInt(r.int(256)),
        outOffset: memoryOffset(r, w),
        outSize: r.chance(0.8) ? BigInt(r.pick([0, 32, 64, 100])) : size(r, w),
        sink: sink(r),
      })
    } else if (n < 86) {
      if (depth >= 2) continue
      const opcode = has(fork, 0xf5) && r.chance(0.4) ? 0xf5 : 0xf0
      out.push({ kind: 'create', opcode, value: value(r), init: initCode(r, w, depth), offset: BigInt(r.int(64)), salt: r.value(), sink: sink(r) })
    } else if (n < 90) {
      const inner = program(r, w, depth, 1 + r.int(3))
      out.push({ kind: 'skip', condition: r.pick([0n, 1n]), inner })
    } else if (n < 91) {
      // A raw opcode, any byte: undefined ones, underflows, bad jumps.
      out.push({ kind: 'bytes', bytes: [r.int(256)] })
    }
  }
  if (r.chance(0.6)) out.push(end(r, w))
  return out
}

function end(r: Random, w: ProgramWorld): Action {
  const how = r.pick(['stop', 'return', 'return', 'revert', 'revert', 'invalid', 'selfdestruct'] as const)
  return { kind: 'end', how, offset: BigInt(r.int(64)), size: r.chance(0.9) ? BigInt(r.int(80)) : size(r, w), beneficiary: target(r, w) }
}

// --- assembling

function push(out: number[], v: bigint, fork: Fork): void {
  if (v === 0n) {
    if (fork >= Fork.shanghai) out.push(0x5f)
    else out.push(0x60, 0)
    return
  }
  let hexText = v.toString(16)
  if (hexText.length % 2 === 1) hexText = `0${hexText}`
  const n = hexText.length / 2
  out.push(0x5f + n)
  for (let i = 0; i < n; i++) out.push(Number.parseInt(hexText.slice(2 * i, 2 * i + 2), 16))
}

function store(out: number[], s: Sink, fork: Fork): void {
  if (s.to === 'pop') out.push(0x50)
  else if (s.to === 'storage') {
    push(out, s.slot, fork)
    out.push(0x55)
  } else {
    push(out, s.offset, fork)
    out.push(0x52)
  }
}

/** Writes `data` into memory at `offset`, a word at a time (the last one padded with what memory held). */
function layOut(out: number[], data: Uint8Array, offset: bigint, fork: Fork): void {
  for (let i = 0; i < data.length; i += 32) {
    const chunk = data.subarray(i, i + 32)
    if (chunk.length === 32) {
      push(out, BigInt(`0x${Buffer.from(chunk).toString('hex')}`), fork)
      push(out, offset + BigInt(i), fork)
      out.push(0x52)
    } else
      for (let j = 0; j < chunk.length; j++) {
        push(out, BigInt(chunk[j]!), fork)
        push(out, offset + BigInt(i + j), fork)
        out.push(0x53)
      }
  }
}

function assembleInto(out: number[], actions: readonly Action[], fork: Fork): void {
  for (const a of actions) {
    switch (a.kind) {
      case 'bytes':
        out.push(...a.bytes)
        break
      case 'sstore':
        push(out, a.value, fork)
        push(out, a.slot, fork)
        out.push(0x55)
        break
      case 'sload':
        push(out, a.slot, fork)
        out.push(0x54)
        store(out, a.sink, fork)
        break
      case 'tstore':
        push(out, a.value, fork)
        push(out, a.slot, fork)
        out.push(0x5d)
        break
      case 'tload':
        push(out, a.slot, fork)
        out.push(0x5c)
        store(out, a.sink, fork)
        break
      case 'mstore':
        push(out, a.value, fork)
        push(out, a.offset, fork)
        out.push(0x52)
        break
      case 'op':
        for (let i = a.args.length - 1; i >= 0; i--) push(out, a.args[i]!, fork)
        out.push(a.opcode)
        store(out, a.sink, fork)
        break
      case 'log':
        for (let i = a.topics.length - 1; i >= 0; i--) push(out, a.topics[i]!, fork)
        push(out, a.size, fork)
        push(out, a.offset, fork)
        out.push(0xa0 + a.topics.length)
        break
      case 'copy':
        push(out, a.size, fork)
        push(out, a.offset, fork)
        push(out, a.memOffset, fork)
        if (a.opcode === 0x3c) push(out, a.target, fork)
        out.push(a.opcode)
        break
      case 'call': {
        layOut(out, a.input, a.inOffset, fork)
        push(out, a.outSize, fork)
        push(out, a.outOffset, fork)
        push(out, BigInt(a.input.length), fork)
        push(out, a.inOffset, fork)
        if (a.opcode === 0xf1 || a.opcode === 0xf2) push(out, a.value, fork)
        push(out, a.target, fork)
        if (a.gas === undefined) out.push(0x5a)
        else push(out, a.gas, fork)
        out.push(a.opcode)
        store(out, a.sink, fork)
        break
      }
      case 'create':
        layOut(out, a.init, a.offset, fork)
        if (a.opcode === 0xf5) push(out, a.salt, fork)
        push(out, BigInt(a.init.length), fork)
        push(out, a.offset, fork)
        push(out, a.value, fork)
        out.push(a.opcode)
        store(out, a.sink, fork)
        break
      case 'skip': {
        const inner: number[] = []
        // The jump's target is absolute: the inner code is assembled where it will sit (after PUSH cond, PUSH4 dest,
        // JUMPI), so that its own skips aim right, and the target is the JUMPDEST after it.
        const header: number[] = []
        push(header, a.condition, fork)
        const start = out.length + header.length + 6
        const scratch: number[] = new Array<number>(start).fill(0)
        assembleInto(scratch, a.inner, fork)
        inner.push(...scratch.slice(start))
        const dest = start + inner.length
        out.push(...header, 0x63, (dest >>> 24) & 0xff, (dest >> 16) & 0xff, (dest >> 8) & 0xff, dest & 0xff, 0x57, ...inner, 0x5b)
        break
      }
      case 'end':
        if (a.how === 'stop') out.push(0x00)
        else if (a.how === 'invalid') out.push(0xfe)
        else if (a.how === 'selfdestruct') {
          push(out, a.beneficiary, fork)
          out.push(0xff)
        } else {
          push(out, a.size, fork)
          push(out, a.offset, fork)
          out.push(a.how === 'return' ? 0xf3 : 0xfd)
        }
        break
    }
  }
}

/** The bytecode of a program for `fork`. */
export function assemble(actions: readonly Action[], fork: Fork): Uint8Array {
  const out: number[] = []
  assembleInto(out, actions, fork)
  return Uint8Array.from(out)
}
