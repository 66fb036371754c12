import { Fork } from '../chain/evmFork.js'
import type { BlockEnv } from './env.js'
import { CallKind, type CallResult, type Message } from './frame.js'
import { MapStateSource } from './mapState.js'
import { Op } from './opcodeNames.js'
import { opTable } from './opcodes.js'
import { WorldState } from './state.js'

// V8 optimizes the interpreter's loop, one large function, for the paths it has seen taken. An opcode or halt the loop
// has not run yet when it is optimized deoptimizes it when first met ("insufficient type feedback"), and the loop then
// runs unoptimized until V8 compiles it again: 60–360 ms of compiling on this machine, per thread, each time. A block
// that spends its gas on one opcode met this at its end (its out-of-gas halt) and at each opcode its warm-up had not
// run, so a fresh node's block could take 10× its warm time (the jumps benchmark: 848 against 69 ms).
// So the first EVM made in a thread first runs the programs below, which take every opcode of the latest fork and
// every way a frame ends, once each (a few milliseconds, unoptimized): the loop is optimized with all of its paths.

/** The fork whose opcodes are primed: the latest's are a superset of the older forks'. */
const FORK = Fork.osaka
const GAS = 10_000_000
const HALT_GAS = 20_000
/** The callee that loops runs out of this: a few hundred turns. */
const LOOP_GAS = 2_000

const MAIN = 0x9000n
const SENDER = 0x9001n
/** Callees, one for each way a frame ends but by running out of its code. */
const RETURNS = 0x9100n
const REVERTS = 0x9101n
const DESTRUCTS = 0x9102n
const INVALID = 0x9103n
const UNDERFLOWS = 0x9104n
const BAD_JUMP = 0x9105n
const LOOPS = 0x9106n
const WRITES = 0x9107n
const IDENTITY = 4n

/** EVM code written op by op, with the smallest push for each value. */
class Assembler {
  readonly bytes: number[] = []

  get pc(): number {
    return this.bytes.length
  }

  op(...ops: number[]): this {
    this.bytes.push(...ops)
    return this
  }

  push(value: bigint | number): this {
    let v = BigInt(value)
    if (v === 0n) return this.op(Op.PUSH0)
    const data: number[] = []
    for (; v > 0n; v >>= 8n) data.unshift(Number(v & 0xffn))
    return this.op(Op.PUSH1 + data.length - 1, ...data)
  }

  /** A jump (JUMPI: with `condition` pushed first) to the JUMPDEST right after it. */
  jumpToNext(op: Op.JUMP | Op.JUMPI, condition = 0): this {
    if (op === Op.JUMPI) this.push(condition)
    const target = this.pc + 4 // PUSH2 target, the jump, then the JUMPDEST
    return this.op(Op.PUSH2, target >> 8, target & 0xff, op, Op.JUMPDEST)
  }

  /** Pushes the arguments of a call (the first one on top) and makes it; its success flag popped. */
  call(op: Op, args: (bigint | number)[]): this {
    for (let i = args.length - 1; i >= 0; i--) this.push(args[i]!)
    return this.op(op, Op.POP)
  }

  code(): Uint8Array {
    return Uint8Array.from(this.bytes)
  }
}

/** Opcodes the generic part does not run: they jump, end the frame, or call, and have parts of their own. */
const OWN_PARTS = new Set<number>([
  Op.STOP,
  Op.JUMP,
  Op.JUMPI,
  Op.RETURN,
  Op.REVERT,
  Op.SELFDESTRUCT,
  Op.CREATE,
  Op.CREATE2,
  Op.CALL,
  Op.CALLCODE,
  Op.DELEGATECALL,
  Op.STATICCALL,
  Op.RETURNDATACOPY,
])

/** The main program: calls that end every way, creates, jumps, then every other opcode on arguments of 1. */
function mainProgram(): Uint8Array {
  const a = new Assembler()
  // Calls (gas, address, [value,] in offset, in size, out offset, out size): a precompile, each callee, and an
  // account with no code; a write under STATICCALL.
  a.push(0x1234).push(0).op(Op.MSTORE)
  a.call(Op.STATICCALL, [HALT_GAS, IDENTITY, 0, 32, 0, 32])
  a.push(1).push(1).push(1).op(Op.RETURNDATACOPY)
  for (const callee of [RETURNS, REVERTS, INVALID, UNDERFLOWS, BAD_JUMP]) a.call(Op.CALL, [HALT_GAS, callee, 0, 0, 0, 0, 32])
  a.call(Op.CALL, [LOOP_GAS, LOOPS, 0, 0, 0, 0, 0])
  a.call(Op.CALL, [HALT_GAS, DESTRUCTS, 1, 0, 0, 0, 0])
  a.call(Op.CALL, [HALT_GAS, 0x9999n, 1, 0, 0, 0, 0])
  a.call(Op.CALLCODE, [HALT_GAS, RETURNS, 1, 0, 0, 0, 32])
  a.call(Op.DELEGATECALL, [HALT_GAS, RETURNS, 0, 0, 0, 32])
  a.call(Op.STATICCALL, [HALT_GAS, WRITES, 0, 0, 0, 0])
  // Creates (value, offset, size[, salt]) of init code that returns one byte: PUSH1 1 PUSH0 RETURN at memory 27.
  a.push(0x60015ff3).push(0).op(Op.MSTORE)
  a.push(4).push(28).push(0).op(Op.CREATE, Op.POP)
  a.push(7).push(4).push(28).push(1).op(Op.CREATE2, Op.POP)
  // A jump, a jump taken and one not.
  a.jumpToNext(Op.JUMP).jumpToNext(Op.JUMPI, 1).jumpToNext(Op.JUMPI, 0)
  const table = opTable(FORK)
  for (let op = 0; op < 256; op++) {
    if (table.gas[op]! < 0 || OWN_PARTS.has(op)) continue
    const pops = table.pops[op]!
    for (let i = 0; i < pops; i++) a.push(1)
    a.op(op)
    if (op >= Op.PUSH1 && op <= Op.PUSH32) for (let i = Op.PUSH1; i <= op; i++) a.op(1)
    for (let i = 0; i < pops + table.growth[op]!; i++) a.op(Op.POP)
  }
  return a.op(Op.STOP).code()
}

/** The callees: each ends its frame one way. */
function callees(): [bigint, Uint8Array][] {
  const code = (a: Assembler) => a.code()
  return [
    [RETURNS, code(new Assembler().push(0xabcd).push(0).op(Op.MSTORE).push(32).push(0).op(Op.RETURN))],
    [REVERTS, code(new Assembler().push(32).push(0).op(Op.REVERT))],
    [DESTRUCTS, code(new Assembler().push(SENDER).op(Op.SELFDESTRUCT))],
    [INVALID, Uint8Array.of(0xfe)],
    [UNDERFLOWS, Uint8Array.of(Op.ADD)],
    [BAD_JUMP, code(new Assembler().push(1).op(Op.JUMP))],
    [LOOPS, Uint8Array.of(Op.JUMPDEST, Op.PUSH0, Op.JUMP)],
    [WRITES, code(new Assembler().push(1).push(1).op(Op.SSTORE))],
  ]
}

const BLOCK: BlockEnv = {
  coinbase: 0x9002n,
  number: 1n,
  timestamp: 1n,
  gasLimit: 30_000_000n,
  prevRandao: 0n,
  difficulty: 0n,
  baseFee: 7n,
  blobBaseFee: 1n,
  chainId: 1n,
  blockHash: () => 0n,
}

let primed = false

type MakeEvm = (fork: Fork, block: BlockEnv, state: WorldState) => { run(msg: Message): CallResult }

/** Runs the priming programs on an EVM of `make`, once a thread (later calls return at once). */
export function primeInterpreter(make: MakeEvm): void {
  if (primed) return
  primed = true
  runPrimingPrograms(make)
}

/** The priming programs run on an EVM of `make`: its result, the state dropped. */
export function runPrimingPrograms(make: MakeEvm): CallResult {
  const plain = (code: Uint8Array, balance: bigint) => ({ nonce: 1n, balance, code, storage: new Map<bigint, bigint>() })
  const state = new WorldState(
    new MapStateSource([
      [MAIN, plain(mainProgram(), 10n)],
      [SENDER, plain(new Uint8Array(0), 10n ** 18n)],
      ...callees().map(([address, code]): [bigint, ReturnType<typeof plain>] => [address, plain(code, 1n)]),
    ]),
  )
  return make(FORK, BLOCK, state).run({
    kind: CallKind.call,
    caller: SENDER,
    to: MAIN,
    codeAddress: MAIN,
    value: 0n,
    apparentValue: 0n,
    input: Uint8Array.of(1, 2, 3),
    gas: GAS,
    gasBase: 0n,
    isStatic: false,
    depth: 0,
  })
}
