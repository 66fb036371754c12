import { RLP } from '@ethereumjs/rlp'
import { bigIntToUnpaddedBytes } from '@ethereumjs/util'
import { Fork } from '../chain/evmFork.js'
import { keccak256 } from '../crypto/keccak.js'
import { type AnalyzedCode, analyze, delegationTarget } from './code.js'
import type { BlockEnv, TxEnv } from './env.js'
import { CallKind, type CallResult, EMPTY, Frame, type Message, Status } from './frame.js'
import {
  accountAccessCost,
  CALL_STIPEND,
  CALL_VALUE,
  callGasCap,
  callGasCapWide,
  callNewAccountCost,
  codeDepositCost,
  copyCost,
  createCost,
  expCost,
  keccakCost,
  logCost,
  memoryExpansionCost,
  SSTORE_SENTRY,
  SELFDESTRUCT_REFUND,
  selfdestructCost,
  sloadCost,
  type SstoreSchedule,
  sstoreCost,
  sstoreRefund,
  sstoreSchedule,
} from './gas.js'
import { MAX_MEMORY_BYTES, Memory } from './memory.js'
import { SPLIT_AT, splitGas, wholeGas } from './wideGas.js'
import { Op } from './opcodeNames.js'
import { type OpTable, opTable } from './opcodes.js'
import { runPrecompile } from './precompiles/cache.js'
import { precompileAt } from './precompiles/index.js'
import { primeInterpreter } from './prime.js'
import type { Precompile } from './precompiles/types.js'
import { Halt, haltMessage } from './halts.js'
import type { Account, WorldState } from './state.js'
import type { EvmTracer } from './tracer.js'
import { ADDRESS_MASK, addressToBytes, bitLength, bytesToWord, fromSigned, MAX_UINT256, readWord, SMALL, toSigned, writeWord } from './words.js'

// The interpreter: one synchronous loop over a frame's code, a switch with a case per opcode by name (`Op`), gas as a
// number charged by the rules of gas.ts, words as BigInts. The loop's switch holds the opcodes that work on the stack,
// memory and the frame; those that reach the state, call, create, copy or log are cases of `outlined`'s switch, the
// loop's default: V8 compiles the loop as one function, and its compile time grew with every case in it (prime.ts).
// A CALL or CREATE does not recurse: the frame records the message and returns to `run`, which keeps the frames in an
// array, runs the callee, and resumes the caller with the result — so 1,024 nested calls use no JavaScript stack.

const MAX_STACK = 1024
const MAX_DEPTH = 1024
/** Offsets and sizes past this cannot be paid for with any gas a block holds; treated as out of gas. */
const MAX_MEMORY = 0xffffffff
const MAX_MEMORY_BIG = BigInt(MAX_MEMORY)
const MAX_CODE_SIZE = 24576
const MAX_INITCODE_SIZE = 2 * MAX_CODE_SIZE
const MAX_INITCODE_SIZE_BIG = BigInt(MAX_INITCODE_SIZE)

/** What the loop returns: a frame's end, or that it asked for a call. */
const SUSPEND = 3
/** What `outlined` returns when the frame goes on. */
const NEXT = -1
/** Gas a frame spends between looks at the deadline (at its jumps): about a millisecond of the slowest opcodes. */
const DEADLINE_CHECK_GAS = 100_000
/**
 * The same under a tracer that sees every step (the struct logger: microseconds a step, ~100x the step's own cost),
 * where 100,000 gas of cheap steps ran hundreds of milliseconds past a trace's `timeout` (issue 31 item 8).
 */
const TRACED_DEADLINE_CHECK_GAS = 1_000

/**
 * Thrown out of `run` when the deadline passes: the execution is abandoned, its state left half-done for the caller to
 * drop. `worked` says whether the execution itself used the time (a stretch of DEADLINE_CHECK_GAS in one frame, or
 * many frames), rather than the thread being paused (a GC, a busy machine) with little run.
 */
export class EvmAbortedError extends Error {
  override readonly name = 'EvmAbortedError'
  constructor(readonly worked: boolean) {
    super('execution aborted')
  }
}

/** Frames an execution enters before a deadline passed at a frame's start counts as its own work. */
const WORK_FRAMES = 32

export interface EvmOptions {
  fork: Fork
  block: BlockEnv
  state: WorldState
  tracer?: EvmTracer | undefined
  /**
   * performance.now() past which `run` throws EvmAbortedError (0: never). Looked at as frames start and, within a
   * frame, at jumps once it has spent DEADLINE_CHECK_GAS since the last look: a synchronous loop bounds itself.
   */
  deadline?: number
  /**
   * eth_call's movePrecompileToAddress: addresses whose precompile differs from the fork's (undefined: none there
   * any more). The warm set stays the fork's, as geth's.
   */
  precompileMoves?: ReadonlyMap<bigint, Precompile | undefined> | undefined
  /**
   * The stacks and memories per call depth, shared by the EVMs of one thread that run one after another (a call's
   * EVM is made per call: its 1,024-word stack and first memory page were a tenth of a cheap call's time).
   */
  scratch?: EvmScratch
}

/** Stacks and memories by call depth, made on first use at a depth and reused by every frame at it. */
export interface EvmScratch {
  stacks: bigint[][]
  memories: Memory[]
}

export function newScratch(): EvmScratch {
  return { stacks: [], memories: [] }
}

export class Evm {
  readonly fork: Fork
  readonly block: BlockEnv
  readonly state: WorldState
  tx: TxEnv = { origin: 0n, gasPrice: 0n, blobHashes: [] }
  tracer: EvmTracer | undefined
  deadline: number
  private readonly moves: ReadonlyMap<bigint, Precompile | undefined> | undefined
  private readonly ops: OpTable
  private readonly sstore: SstoreSchedule
  private readonly stacks: bigint[][]
  private readonly memories: Memory[]

  constructor(o: EvmOptions) {
    this.fork = o.fork
    this.block = o.block
    this.state = o.state
    this.tracer = o.tracer
    this.deadline = o.deadline ?? 0
    this.moves = o.precompileMoves
    this.ops = opTable(o.fork)
    this.sstore = sstoreSchedule(o.fork)
    const scratch = o.scratch ?? newScratch()
    this.stacks = scratch.stacks
    this.memories = scratch.memories
    // EIP-161 (Spurious Dragon): touched empty accounts go at the transaction's end. Set here so that whoever ends the
    // transaction on this state (state.endTransaction()) applies the rules of the fork that ran it.
    o.state.clearsEmptyAccounts = o.fork >= Fork.spuriousDragon
    // Once a thread, before its first execution: the loop is optimized knowing all its paths (prime.ts).
    primeInterpreter((fork, block, state) => new Evm({ fork, block, state }))
  }

  /** The precompile at an address in this EVM's fork, after any moves. */
  precompileAt(address: bigint): Precompile | undefined {
    const moves = this.moves
    if (moves?.has(address)) return moves.get(address)
    return precompileAt(address, this.fork)
  }

  /** Frames entered since the EVM was made. */
  private entered = 0

  private checkDeadline(worked: boolean): void {
    if (this.deadline !== 0 && performance.now() > this.deadline) throw new EvmAbortedError(worked || this.entered > WORK_FRAMES)
  }

  /** Runs a message to its end: a transaction's call or create (the nonce and fee already handled by the caller). */
  run(msg: Message): CallResult {
    const first = this.enter(msg)
    if (!(first instanceof Frame)) return first
    const frames: Frame[] = [first]
    let top = first
    for (;;) {
      const status = this.loop(top)
      if (status === SUSPEND) {
        const child = this.enter(top.pending!)
        if (child instanceof Frame) {
          frames.push(child)
          top = child
        } else this.resume(top, child)
        continue
      }
      const result = this.exit(top, status as Status)
      frames.pop()
      if (frames.length === 0) return result
      top = frames[frames.length - 1]!
      this.resume(top, result)
    }
  }

  // --- entering and leaving frames

  private frameFor(msg: Message, code: AnalyzedCode, account: Account, checkpoint: number): Frame {
    const d = msg.depth
    let stack = this.stacks[d]
    if (stack === undefined) {
      stack = new Array<bigint>(MAX_STACK).fill(0n)
      this.stacks[d] = stack
    }
    let memory = this.memories[d]
    if (memory === undefined) {
      memory = new Memory()
      this.memories[d] = memory
    }
    memory.reset()
    return new Frame(msg, code, account, stack, memory, checkpoint)
  }

  private enter(msg: Message): Frame | CallResult {
    if (this.deadline !== 0) {
      this.entered++
      this.checkDeadline(false)
    }
    this.tracer?.onEnter?.(msg)
    const r = msg.kind === CallKind.create || msg.kind === CallKind.create2 ? this.enterCreate(msg) : this.enterCall(msg)
    if (!(r instanceof Frame)) this.tracer?.onExit?.(msg, r)
    return r
  }

  private enterCall(msg: Message): Frame | CallResult {
    const state = this.state
    if (msg.depth > MAX_DEPTH) return refused(msg, Halt.depth)
    const caller = state.get(msg.caller)
    if (msg.value > 0n && (msg.kind === CallKind.call || msg.kind === CallKind.callcode) && caller.balance < msg.value)
      return refused(msg, Halt.insufficientBalance)
    const checkpoint = state.checkpoint()
    const to = state.get(msg.to)
    const precompile = this.precompileAt(msg.codeAddress)
    if (msg.kind === CallKind.call) {
      if (!to.exists) {
        if (this.fork >= Fork.spuriousDragon) {
          if (precompile === undefined && msg.value === 0n) {
            // Nothing to run and nothing created (EIP-161); touched only.
            state.touch(to)
            return result(Status.success, msg.gas, msg.gasBase, EMPTY)
          }
        } else state.ensureExists(to) // before EIP-161 a call creates the account it names, even with no value
      }
      if (msg.value > 0n) {
        state.subBalance(caller, msg.value)
        state.addBalance(to, msg.value)
      } else state.touch(to)
    } else if (msg.kind === CallKind.callcode && msg.value > 0n) {
      state.subBalance(caller, msg.value)
      state.addBalance(caller, msg.value)
    } else if (msg.kind === CallKind.staticcall) state.touch(to) // as geth: a zero transfer's touch
    if (precompile !== undefined) {
      const r = runPrecompile(precompile, msg.input, msg.gasBase === 0n ? msg.gas : Number.MAX_SAFE_INTEGER, this.fork)
      if (!r.ok) {
        state.revertTo(checkpoint)
        return result(Status.error, 0, 0n, EMPTY, Halt.precompile, r.error)
      }
      return result(Status.success, msg.gas - r.gasUsed, msg.gasBase, r.output)
    }
    const codeAccount = msg.codeAddress === msg.to ? to : state.get(msg.codeAddress)
    let code = state.codeOf(codeAccount)
    if (this.fork >= Fork.prague) {
      const target = delegationTarget(code)
      // The caller paid to access the delegate (gas for CALL*, intrinsic for a transaction).
      if (target !== undefined) code = state.codeOf(state.get(target))
    }
    if (code.length === 0) return result(Status.success, msg.gas, msg.gasBase, EMPTY)
    return this.frameFor(msg, analyze(code), to, checkpoint)
  }

  private enterCreate(msg: Message): Frame | CallResult {
    const state = this.state
    if (msg.depth > MAX_DEPTH) return refused(msg, Halt.depth)
    const to = state.get(msg.to)
    if (this.fork >= Fork.berlin) state.warmAddress(msg.to)
    if (state.collides(to)) return result(Status.error, 0, 0n, EMPTY, Halt.addressCollision)
    const checkpoint = state.checkpoint()
    state.createContract(to)
    if (this.fork >= Fork.spuriousDragon) state.setNonce(to, 1n) // EIP-161: a contract's nonce starts at 1
    const caller = state.get(msg.caller)
    if (msg.value > 0n) state.subBalance(caller, msg.value)
    state.addBalance(to, msg.value)
    if (msg.input.length === 0) {
      return this.deposit(msg, EMPTY, msg.gas, msg.gasBase, checkpoint)
    }
    return this.frameFor(msg, analyze(msg.input), to, checkpoint)
  }

  /** A create's end: the returned code checked, paid for and stored. */
  private deposit(msg: Message, code: Uint8Array, gasLeft: number, gasBase: bigint, checkpoint: number): CallResult {
    const state = this.state
    const fork = this.fork
    let halt: Halt | undefined
    // geth's order (initNewContract): EIP-3541's prefix, the deposit's gas, EIP-170's size.
    if (fork >= Fork.london && code.length > 0 && code[0] === 0xef) halt = Halt.invalidCode
    else if (gasBase === 0n && gasLeft < codeDepositCost(code.length)) {
      if (fork < Fork.homestead) {
        // Frontier: a deposit it cannot pay for leaves the contract without code, its state and gas kept. A CREATE
        // gets the address; the halt is named all the same, and a transaction that ends so failed (geth, EthereumJS).
        const r = result(Status.success, gasLeft, gasBase, EMPTY, Halt.codeStoreOutOfGas)
        r.created = msg.to
        return r
      }
      halt = Halt.codeStoreOutOfGas
    } else if (fork >= Fork.spuriousDragon && code.length > MAX_CODE_SIZE) halt = Halt.maxCodeSize
    if (halt !== undefined) {
      state.revertTo(checkpoint)
      return result(Status.error, 0, 0n, EMPTY, halt)
    }
    state.setCode(state.get(msg.to), code)
    // The code is the create's output, as geth returns it (eth_call of a creation, a call tracer's output); a CREATE
    // opcode's caller sees none of it (its return data stays empty).
    const r = result(Status.success, gasLeft - codeDepositCost(code.length), gasBase, code)
    r.created = msg.to
    return r
  }

  private exit(f: Frame, status: Status): CallResult {
    const msg = f.msg
    let r: CallResult
    if (status === Status.success) {
      if (msg.kind === CallKind.create || msg.kind === CallKind.create2) r = this.deposit(msg, f.output, f.gas, f.gasBase, f.checkpoint)
      else r = result(Status.success, f.gas, f.gasBase, f.output)
    } else {
      this.state.revertTo(f.checkpoint)
      r = status === Status.revert ? result(Status.revert, f.gas, f.gasBase, f.output) : this.haltResult(f)
    }
    this.tracer?.onExit?.(msg, r)
    return r
  }

  /** An exceptional halt's result, with geth's words for it (which quote the opcode and stack for some). */
  private haltResult(f: Frame): CallResult {
    const halt = f.halt!
    const op = f.pc < f.code.bytes.length ? f.code.bytes[f.pc]! : 0
    const { pops, growth } = this.ops
    return result(Status.error, 0, 0n, EMPTY, halt, haltMessage(halt, { op, stackLength: f.sp, pops: pops[op]!, growth: growth[op]! }))
  }

  /** Hands a finished call's result to the frame that made it. */
  private resume(f: Frame, r: CallResult): void {
    const msg = f.pending!
    f.pending = undefined
    if (f.gasBase === 0n && r.gasBase === 0n && f.gas + r.gasLeft <= SPLIT_AT) f.gas += r.gasLeft
    else {
      const g = splitGas(wholeGas(f.gas, f.gasBase) + wholeGas(r.gasLeft, r.gasBase))
      f.gas = g.gas
      f.gasBase = g.base
    }
    const st = f.stack
    if (msg.kind === CallKind.create || msg.kind === CallKind.create2) {
      f.returnData = r.status === Status.revert ? r.output : EMPTY
      st[f.sp++] = r.status === Status.success ? r.created! : 0n
      return
    }
    f.returnData = r.output
    const n = Math.min(f.retSize, r.output.length)
    if (n > 0) f.memory.buf.set(r.output.subarray(0, n), f.retOffset)
    st[f.sp++] = r.status === Status.success ? 1n : 0n
  }

  // --- the loop

  private loop(f: Frame): number {
    const state = this.state
    const block = this.block
    const tracer = this.tracer
    const fork = this.fork
    const { gas: opGas, pops, growth } = this.ops
    const code = f.code.bytes
    const len = code.length
    const lenBig = BigInt(len)
    const jumpdests = f.code.jumpdests
    const st = f.stack
    const mem = f.memory
    const msg = f.msg
    const account = f.account
    // A create's input is its code; it has no call data.
    const input = msg.kind === CallKind.create || msg.kind === CallKind.create2 ? EMPTY : msg.input
    const inputLen = BigInt(input.length)
    let pc = f.pc
    let sp = f.sp
    let gas = f.gas
    const gasBase = f.gasBase
    // Below this much gas left, the next jump looks at the deadline (never, without one).
    const checkGas = tracer?.onStep === undefined ? DEADLINE_CHECK_GAS : TRACED_DEADLINE_CHECK_GAS
    let checkAt = this.deadline === 0 ? -1 : gas - checkGas

    // Charging gas has one shape: `gas -= cost; if (gas < 0) break outOfGas`. A cost no gas can pay is Infinity, and
    // the halt is written once, after the loop, which nothing else leaves but a return.
    outOfGas: for (;;) {
      const op = pc < len ? code[pc]! : 0
      const base = opGas[op]!
      if (base < 0) return halt(f, pc, sp, Halt.invalidOpcode)
      if (sp < pops[op]!) return halt(f, pc, sp, Halt.stackUnderflow)
      if (sp + growth[op]! > MAX_STACK) return halt(f, pc, sp, Halt.stackOverflow)
      if (tracer !== undefined) {
        f.pc = pc
        f.sp = sp
        f.gas = gas
        tracer.onStep?.(f, op)
      }
      gas -= base
      if (gas < 0) break // out of gas, as every `break outOfGas` below

      switch (op) {
        case Op.STOP:
          f.output = EMPTY
          f.pc = pc
          f.sp = sp
          f.gas = gas
          return Status.success
        case Op.ADD:
          sp--
          st[sp - 1] = (st[sp]! + st[sp - 1]!) & MAX_UINT256
          break
        case Op.MUL:
          sp--
          st[sp - 1] = (st[sp]! * st[sp - 1]!) & MAX_UINT256
          break
        case Op.SUB:
          sp--
          st[sp - 1] = (st[sp]! - st[sp - 1]!) & MAX_UINT256
          break
        case Op.DIV: {
          sp--
          const d = st[sp - 1]!
          st[sp - 1] = d === 0n ? 0n : st[sp]! / d
          break
        }
        case Op.SDIV: {
          sp--
          const d = st[sp - 1]!
          if (d === 0n) st[sp - 1] = 0n
          else st[sp - 1] = fromSigned(toSigned(st[sp]!) / toSigned(d)) & MAX_UINT256
          break
        }
        case Op.MOD: {
          sp--
          const d = st[sp - 1]!
          st[sp - 1] = d === 0n ? 0n : st[sp]! % d
          break
        }
        case Op.SMOD: {
          sp--
          const d = st[sp - 1]!
          st[sp - 1] = d === 0n ? 0n : fromSigned(toSigned(st[sp]!) % toSigned(d))
          break
        }
        case Op.ADDMOD: {
          sp -= 2
          const n = st[sp - 1]!
          st[sp - 1] = n === 0n ? 0n : (st[sp + 1]! + st[sp]!) % n
          break
        }
        case Op.MULMOD: {
          sp -= 2
          const n = st[sp - 1]!
          st[sp - 1] = n === 0n ? 0n : (st[sp + 1]! * st[sp]!) % n
          break
        }
        case Op.EXP: {
          sp--
          const e = st[sp - 1]!
          gas -= expCost(fork, e)
          if (gas < 0) break outOfGas
          st[sp - 1] = expMod256(st[sp]!, e)
          break
        }
        case Op.SIGNEXTEND: {
          sp--
          const b = st[sp]!
          if (b < 31n) {
            const x = st[sp - 1]!
            const bit = b * 8n + 7n
            const mask = (1n << (bit + 1n)) - 1n
            st[sp - 1] = (x >> bit) & 1n ? x | (MAX_UINT256 ^ mask) : x & mask
          }
          break
        }
        case Op.LT:
          sp--
          st[sp - 1] = st[sp]! < st[sp - 1]! ? 1n : 0n
          break
        case Op.GT:
          sp--
          st[sp - 1] = st[sp]! > st[sp - 1]! ? 1n : 0n
          break
        case Op.SLT:
          sp--
          st[sp - 1] = toSigned(st[sp]!) < toSigned(st[sp - 1]!) ? 1n : 0n
          break
        case Op.SGT:
          sp--
          st[sp - 1] = toSigned(st[sp]!) > toSigned(st[sp - 1]!) ? 1n : 0n
          break
        case Op.EQ:
          sp--
          st[sp - 1] = st[sp]! === st[sp - 1]! ? 1n : 0n
          break
        case Op.ISZERO:
          st[sp - 1] = st[sp - 1]! === 0n ? 1n : 0n
          break
        case Op.AND:
          sp--
          st[sp - 1] = st[sp]! & st[sp - 1]!
          break
        case Op.OR:
          sp--
          st[sp - 1] = st[sp]! | st[sp - 1]!
          break
        case Op.XOR:
          sp--
          st[sp - 1] = st[sp]! ^ st[sp - 1]!
          break
        case Op.NOT:
          st[sp - 1] = MAX_UINT256 ^ st[sp - 1]!
          break
        case Op.BYTE: {
          sp--
          const i = st[sp]!
          st[sp - 1] = i < 32n ? (st[sp - 1]! >> (248n - i * 8n)) & 0xffn : 0n
          break
        }
        case Op.SHL: {
          sp--
          const s = st[sp]!
          st[sp - 1] = s < 256n ? (st[sp - 1]! << s) & MAX_UINT256 : 0n
          break
        }
        case Op.SHR: {
          sp--
          const s = st[sp]!
          st[sp - 1] = s < 256n ? st[sp - 1]! >> s : 0n
          break
        }
        case Op.SAR: {
          sp--
          const s = st[sp]!
          const x = toSigned(st[sp - 1]!)
          st[sp - 1] = fromSigned(x >> (s < 256n ? s : 256n))
          break
        }
        case Op.CLZ: {
          const x = st[sp - 1]!
          st[sp - 1] = SMALL[256 - bitLength(x)]!
          break
        }
        case Op.ADDRESS:
          st[sp++] = msg.to
          break
        case Op.ORIGIN:
          st[sp++] = this.tx.origin
          break
        case Op.CALLER:
          st[sp++] = msg.caller
          break
        case Op.CALLVALUE:
          st[sp++] = msg.apparentValue
          break
        case Op.CALLDATALOAD: {
          const o = st[sp - 1]!
          st[sp - 1] = o < inputLen ? readWord(input, Number(o)) : 0n
          break
        }
        case Op.CALLDATASIZE:
          st[sp++] = inputLen
          break
        case Op.CODESIZE:
          st[sp++] = lenBig
          break
        case Op.GASPRICE:
          st[sp++] = this.tx.gasPrice
          break
        case Op.RETURNDATASIZE:
          st[sp++] = BigInt(f.returnData.length)
          break
        case Op.BLOCKHASH: {
          const n = st[sp - 1]!
          st[sp - 1] = n < block.number && n + 256n >= block.number ? block.blockHash(n) : 0n
          break
        }
        case Op.COINBASE:
          st[sp++] = block.coinbase
          break
        case Op.TIMESTAMP:
          st[sp++] = block.timestamp
          break
        case Op.NUMBER:
          st[sp++] = block.number
          break
        case Op.DIFFICULTY:
          st[sp++] = fork >= Fork.paris ? block.prevRandao : block.difficulty
          break
        case Op.GASLIMIT:
          st[sp++] = block.gasLimit
          break
        case Op.CHAINID:
          st[sp++] = block.chainId
          break
        case Op.SELFBALANCE:
          st[sp++] = account.balance
          break
        case Op.BASEFEE:
          st[sp++] = block.baseFee
          break
        case Op.BLOBHASH: {
          const i = st[sp - 1]!
          const hashes = this.tx.blobHashes
          st[sp - 1] = i < BigInt(hashes.length) ? hashes[Number(i)]! : 0n
          break
        }
        case Op.BLOBBASEFEE:
          st[sp++] = block.blobBaseFee
          break
        case Op.POP:
          sp--
          break
        case Op.MLOAD: {
          const o = st[sp - 1]!
          gas = chargeMemory(mem, o, 32n, gas)
          if (gas < 0) break outOfGas
          st[sp - 1] = readWord(mem.buf, Number(o))
          break
        }
        case Op.MSTORE: {
          sp -= 2
          const o = st[sp + 1]!
          gas = chargeMemory(mem, o, 32n, gas)
          if (gas < 0) break outOfGas
          writeWord(mem.buf, Number(o), st[sp]!)
          break
        }
        case Op.MSTORE8: {
          sp -= 2
          const o = st[sp + 1]!
          gas = chargeMemory(mem, o, 1n, gas)
          if (gas < 0) break outOfGas
          mem.buf[Number(o)] = Number(st[sp]! & 0xffn)
          break
        }
        case Op.JUMP: {
          const d = st[--sp]!
          if (d >= lenBig || jumpdests[Number(d)] !== 1) return halt(f, pc, sp, Halt.invalidJump)
          pc = Number(d)
          if (gas < checkAt) {
            this.checkDeadline(true)
            checkAt = gas - checkGas
          }
          continue
        }
        case Op.JUMPI: {
          sp -= 2
          if (st[sp]! !== 0n) {
            const d = st[sp + 1]!
            if (d >= lenBig || jumpdests[Number(d)] !== 1) return halt(f, pc, sp, Halt.invalidJump)
            pc = Number(d)
            if (gas < checkAt) {
              this.checkDeadline(true)
              checkAt = gas - checkGas
            }
            continue
          }
          break
        }
        case Op.PC:
          st[sp++] = BigInt(pc)
          break
        case Op.MSIZE:
          st[sp++] = BigInt(mem.size)
          break
        case Op.GAS:
          st[sp++] = gasBase === 0n ? BigInt(gas) : wholeGas(gas, gasBase)
          break
        case Op.JUMPDEST:
          break
        case Op.TLOAD:
          st[sp - 1] = state.getTransient(msg.to, st[sp - 1]!)
          break
        case Op.TSTORE:
          if (msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          sp -= 2
          state.setTransient(account, st[sp + 1]!, st[sp]!)
          break
        case Op.PUSH0:
          st[sp++] = 0n
          break
        case Op.PUSH1:
          st[sp++] = SMALL[pc + 1 < len ? code[pc + 1]! : 0]!
          pc += 2
          continue
        case Op.PUSH2:
        case Op.PUSH3:
        case Op.PUSH4:
        case Op.PUSH5:
        case Op.PUSH6:
        case Op.PUSH7:
        case Op.PUSH8:
        case Op.PUSH9:
        case Op.PUSH10:
        case Op.PUSH11:
        case Op.PUSH12:
        case Op.PUSH13:
        case Op.PUSH14:
        case Op.PUSH15:
        case Op.PUSH16:
        case Op.PUSH17:
        case Op.PUSH18:
        case Op.PUSH19:
        case Op.PUSH20:
        case Op.PUSH21:
        case Op.PUSH22:
        case Op.PUSH23:
        case Op.PUSH24:
        case Op.PUSH25:
        case Op.PUSH26:
        case Op.PUSH27:
        case Op.PUSH28:
        case Op.PUSH29:
        case Op.PUSH30:
        case Op.PUSH31:
        case Op.PUSH32: {
          const n = op - Op.PUSH1 + 1
          // Jump targets, selectors and constants: read from the code once, kept beside its analysis.
          const pushes = f.code.pushes
          let v = pushes[pc]
          if (v === undefined) {
            if (n <= 6) {
              let x = 0
              for (let i = 1; i <= n; i++) x = x * 256 + (pc + i < len ? code[pc + i]! : 0)
              v = BigInt(x)
            } else {
              v = 0n
              for (let i = 1; i <= n; i++) v = (v << 8n) | BigInt(pc + i < len ? code[pc + i]! : 0)
            }
            pushes[pc] = v
          }
          st[sp++] = v
          pc += n + 1
          continue
        }
        case Op.DUP1:
        case Op.DUP2:
        case Op.DUP3:
        case Op.DUP4:
        case Op.DUP5:
        case Op.DUP6:
        case Op.DUP7:
        case Op.DUP8:
        case Op.DUP9:
        case Op.DUP10:
        case Op.DUP11:
        case Op.DUP12:
        case Op.DUP13:
        case Op.DUP14:
        case Op.DUP15:
        case Op.DUP16:
          st[sp] = st[sp - (op - Op.DUP1 + 1)]!
          sp++
          break
        case Op.SWAP1:
        case Op.SWAP2:
        case Op.SWAP3:
        case Op.SWAP4:
        case Op.SWAP5:
        case Op.SWAP6:
        case Op.SWAP7:
        case Op.SWAP8:
        case Op.SWAP9:
        case Op.SWAP10:
        case Op.SWAP11:
        case Op.SWAP12:
        case Op.SWAP13:
        case Op.SWAP14:
        case Op.SWAP15:
        case Op.SWAP16: {
          const j = sp - 2 - (op - Op.SWAP1)
          const t = st[sp - 1]!
          st[sp - 1] = st[j]!
          st[j] = t
          break
        }
        default: {
          // The opcodes with work beyond the stack and memory (state, calls, creates, copies, logs) run in a method of
          // their own: V8 compiles this loop as one function, and each case in it adds to its compile time and
          // weighs on the code of the cheap ones (prime.ts).
          f.pc = pc
          f.sp = sp
          f.gas = gas
          const end = this.outlined(f, op)
          if (end !== NEXT) return end
          sp = f.sp
          gas = f.gas
          break
        }
      }
      pc++
    }
    return halt(f, pc, sp, Halt.outOfGas)
  }

  /**
   * An opcode of the loop's `default`: the frame's pc, sp and gas are in `f`. NEXT when the frame goes on at the next
   * opcode (its sp and gas in `f`), else what the loop returns (a frame's end, or SUSPEND for a call or create).
   */
  private outlined(f: Frame, op: number): number {
    const state = this.state
    const tracer = this.tracer
    const fork = this.fork
    const code = f.code.bytes
    const st = f.stack
    const mem = f.memory
    const msg = f.msg
    const account = f.account
    const input = msg.kind === CallKind.create || msg.kind === CallKind.create2 ? EMPTY : msg.input
    const gasBase = f.gasBase
    const pc = f.pc
    let sp = f.sp
    let gas = f.gas
    // Charging gas has the loop's shape, `gas -= cost; if (gas < 0) break outOfGas`, and the halt is written once, after
    // the block, which nothing else leaves but a return.
    // biome-ignore lint/suspicious/noConfusingLabels: a block's label, so that the halt is written once as in the loop
    outOfGas: {
      switch (op) {
        case Op.KECCAK256: {
          sp--
          const offset = st[sp]!
          const size = st[sp - 1]!
          gas -= keccakCost(size)
          if (gas < 0) break outOfGas
          gas = chargeMemory(mem, offset, size, gas)
          if (gas < 0) break outOfGas
          const o = Number(offset)
          const n = Number(size)
          st[sp - 1] = bytesToWord(keccak256(n === 0 ? EMPTY : mem.buf.subarray(o, o + n)))
          break
        }
        case Op.BALANCE: {
          const a = st[sp - 1]! & ADDRESS_MASK
          if (fork >= Fork.berlin) {
            gas -= accountAccessCost(state.warmAddress(a))
            if (gas < 0) break outOfGas
          }
          st[sp - 1] = state.get(a).balance
          break
        }
        case Op.CALLDATACOPY:
        case Op.CODECOPY:
        case Op.RETURNDATACOPY: {
          sp -= 3
          const memOffset = st[sp + 2]!
          const dataOffset = st[sp + 1]!
          const size = st[sp]!
          gas -= copyCost(size)
          if (gas < 0) break outOfGas
          const data = op === Op.CALLDATACOPY ? input : op === Op.CODECOPY ? code : f.returnData
          if (op === Op.RETURNDATACOPY && dataOffset + size > BigInt(data.length)) return halt(f, pc, sp, Halt.returnDataOutOfBounds)
          gas = chargeMemory(mem, memOffset, size, gas)
          if (gas < 0) break outOfGas
          if (size > 0n) copyPadded(mem.buf, Number(memOffset), data, dataOffset, Number(size))
          break
        }
        case Op.EXTCODESIZE: {
          const a = st[sp - 1]! & ADDRESS_MASK
          if (fork >= Fork.berlin) {
            gas -= accountAccessCost(state.warmAddress(a))
            if (gas < 0) break outOfGas
          }
          st[sp - 1] = BigInt(state.codeOf(state.get(a)).length)
          break
        }
        case Op.EXTCODECOPY: {
          sp -= 4
          const a = st[sp + 3]! & ADDRESS_MASK
          const memOffset = st[sp + 2]!
          const codeOffset = st[sp + 1]!
          const size = st[sp]!
          gas -= copyCost(size) + (fork >= Fork.berlin ? accountAccessCost(state.warmAddress(a)) : 0)
          if (gas < 0) break outOfGas
          gas = chargeMemory(mem, memOffset, size, gas)
          if (gas < 0) break outOfGas
          if (size > 0n) copyPadded(mem.buf, Number(memOffset), state.codeOf(state.get(a)), codeOffset, Number(size))
          break
        }
        case Op.EXTCODEHASH: {
          const a = st[sp - 1]! & ADDRESS_MASK
          if (fork >= Fork.berlin) {
            gas -= accountAccessCost(state.warmAddress(a))
            if (gas < 0) break outOfGas
          }
          const acc = state.get(a)
          st[sp - 1] = !acc.exists || acc.isEmpty() ? 0n : bytesToWord(acc.codeHash)
          break
        }
        case Op.SLOAD: {
          const slot = st[sp - 1]!
          if (fork >= Fork.berlin) {
            gas -= sloadCost(state.warmSlot(account, slot))
            if (gas < 0) break outOfGas
          }
          st[sp - 1] = state.getStorage(account, slot)
          break
        }
        case Op.SSTORE: {
          if (msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          // EIP-2200's sentry (Istanbul): no SSTORE on the call stipend.
          if (fork >= Fork.istanbul && gasBase === 0n && gas <= SSTORE_SENTRY) break outOfGas
          sp -= 2
          const slot = st[sp + 1]!
          const value = st[sp]!
          const current = state.getStorage(account, slot)
          const cold = fork >= Fork.berlin && !state.warmSlot(account, slot)
          const sstore = this.sstore
          // The value at the transaction's start prices only net metering's writes that change the slot.
          const original = current === value || !sstore.netMetered ? current : state.committedStorage(account, slot)
          const refund = sstoreRefund(sstore, original, current, value)
          if (refund > 0) state.addRefund(refund)
          else if (refund < 0) state.subRefund(-refund)
          gas -= sstoreCost(sstore, original, current, value, cold)
          if (gas < 0) break outOfGas
          if (current !== value) state.setStorage(account, slot, value)
          break
        }
        case Op.MCOPY: {
          sp -= 3
          const dst = st[sp + 2]!
          const src = st[sp + 1]!
          const size = st[sp]!
          gas -= copyCost(size)
          if (gas < 0) break outOfGas
          if (size > 0n) {
            gas = chargeMemory(mem, src > dst ? src : dst, size, gas)
            if (gas < 0) break outOfGas
            const s = Number(src)
            mem.buf.copyWithin(Number(dst), s, s + Number(size))
          }
          break
        }
        case Op.RETURN:
        case Op.REVERT: {
          sp -= 2
          const offset = st[sp + 1]!
          const size = st[sp]!
          gas = chargeMemory(mem, offset, size, gas)
          if (gas < 0) break outOfGas
          f.output = size === 0n ? EMPTY : mem.slice(Number(offset), Number(size))
          f.pc = pc
          f.sp = sp
          f.gas = gas
          return op === Op.RETURN ? Status.success : Status.revert
        }
        case Op.CREATE:
        case Op.CREATE2: {
          if (msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          const create2 = op === Op.CREATE2
          sp -= create2 ? 4 : 3
          const value = st[sp + (create2 ? 3 : 2)]!
          const offset = st[sp + (create2 ? 2 : 1)]!
          const size = st[sp + (create2 ? 1 : 0)]!
          if (fork >= Fork.shanghai && size > MAX_INITCODE_SIZE_BIG) return halt(f, pc, sp, Halt.maxInitCodeSize)
          gas -= createCost(fork, size, create2)
          if (gas < 0) break outOfGas
          gas = chargeMemory(mem, offset, size, gas)
          if (gas < 0) break outOfGas
          const init = size === 0n ? EMPTY : mem.slice(Number(offset), Number(size))
          f.returnData = EMPTY
          const creator = account
          if (msg.depth + 1 > MAX_DEPTH || creator.balance < value || creator.nonce >= 0xffffffffffffffffn) {
            st[sp++] = 0n
            break
          }
          // EIP-150 keeps a 64th back; before it the create takes all the gas there is.
          let childGas = callGasCap(fork, gas)
          let childBase = 0n
          if (gasBase === 0n) gas -= childGas
          else {
            const whole = wholeGas(gas, gasBase)
            const passed = callGasCapWide(fork, whole)
            const c = splitGas(passed)
            const p = splitGas(whole - passed)
            childGas = c.gas
            childBase = c.base
            gas = p.gas
            f.gasBase = p.base
          }
          const nonce = creator.nonce
          state.setNonce(creator, nonce + 1n)
          const to = create2 ? createAddress2(msg.to, st[sp]!, init) : createAddress(msg.to, nonce)
          f.pending = {
            kind: create2 ? CallKind.create2 : CallKind.create,
            caller: msg.to,
            to,
            codeAddress: to,
            value,
            apparentValue: value,
            input: init,
            gas: childGas,
            gasBase: childBase,
            isStatic: false,
            depth: msg.depth + 1,
          }
          f.pc = pc + 1
          f.sp = sp
          f.gas = gas
          return SUSPEND
        }
        case Op.CALL:
        case Op.CALLCODE:
        case Op.DELEGATECALL:
        case Op.STATICCALL: {
          const hasValue = op === Op.CALL || op === Op.CALLCODE
          sp -= hasValue ? 7 : 6
          const requested = st[sp + (hasValue ? 6 : 5)]!
          const to = st[sp + (hasValue ? 5 : 4)]! & ADDRESS_MASK
          const value = hasValue ? st[sp + 4]! : 0n
          const inOffset = st[sp + 3]!
          const inSize = st[sp + 2]!
          const outOffset = st[sp + 1]!
          const outSize = st[sp]!
          if (op === Op.CALL && value > 0n && msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          gas = chargeMemory(mem, inOffset, inSize, gas)
          if (gas >= 0) gas = chargeMemory(mem, outOffset, outSize, gas)
          if (gas < 0) break outOfGas
          let cost = fork >= Fork.berlin ? accountAccessCost(state.warmAddress(to)) : 0
          if (value > 0n) cost += CALL_VALUE
          if (op === Op.CALL) cost += callNewAccountCost(fork, state, to, value)
          if (fork >= Fork.prague) {
            // EIP-7702: a delegated account's code is read from its delegate, paid for as another account read.
            const target = delegationTarget(state.codeOf(state.get(to)))
            if (target !== undefined) cost += accountAccessCost(state.warmAddress(target))
          }
          gas -= cost
          if (gas < 0) break outOfGas
          let childGas: number
          let childBase = 0n
          if (gasBase === 0n) {
            // EIP-150: at most all but a 64th of what is left; before it, what was asked, which must all be there.
            const cap = callGasCap(fork, gas)
            if (requested < BigInt(cap)) childGas = Number(requested)
            else if (fork >= Fork.tangerineWhistle || requested === BigInt(cap)) childGas = cap
            else break outOfGas
            gas -= childGas
            if (value > 0n) childGas += CALL_STIPEND
          } else {
            const whole = wholeGas(gas, gasBase)
            const cap = callGasCapWide(fork, whole)
            if (fork < Fork.tangerineWhistle && requested > cap) break outOfGas
            const child = requested < cap ? requested : cap
            const p = splitGas(whole - child)
            gas = p.gas
            f.gasBase = p.base
            const c = splitGas(child + (value > 0n ? BigInt(CALL_STIPEND) : 0n))
            childGas = c.gas
            childBase = c.base
          }
          f.retOffset = outSize === 0n ? 0 : Number(outOffset)
          f.retSize = Number(outSize)
          const inp = inSize === 0n ? EMPTY : mem.slice(Number(inOffset), Number(inSize))
          f.pending = {
            kind:
              op === Op.CALL
                ? CallKind.call
                : op === Op.CALLCODE
                  ? CallKind.callcode
                  : op === Op.DELEGATECALL
                    ? CallKind.delegatecall
                    : CallKind.staticcall,
            caller: op === Op.DELEGATECALL ? msg.caller : msg.to,
            to: op === Op.CALL || op === Op.STATICCALL ? to : msg.to,
            codeAddress: to,
            value: op === Op.DELEGATECALL ? 0n : value,
            apparentValue: op === Op.DELEGATECALL ? msg.apparentValue : value,
            input: inp,
            gas: childGas,
            gasBase: childBase,
            isStatic: msg.isStatic || op === Op.STATICCALL,
            depth: msg.depth + 1,
          }
          f.pc = pc + 1
          f.sp = sp
          f.gas = gas
          return SUSPEND
        }
        case Op.SELFDESTRUCT: {
          if (msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          const beneficiary = st[--sp]! & ADDRESS_MASK
          const cold = fork >= Fork.berlin && !state.warmAddress(beneficiary)
          const b = state.get(beneficiary)
          gas -= selfdestructCost(fork, cold, b, account.balance > 0n)
          if (gas < 0) break outOfGas
          const balance = account.balance
          if (fork >= Fork.cancun) {
            state.subBalance(account, balance)
            state.addBalance(b, balance)
            if (state.createdInTransaction(account)) {
              // Gone now (burnt when it names itself): a later call in the transaction sees no balance.
              state.setBalance(account, 0n)
              state.destruct(account)
            }
          } else {
            if (fork < Fork.london && !state.isDestructed(account)) state.addRefund(SELFDESTRUCT_REFUND)
            state.addBalance(b, balance)
            state.setBalance(account, 0n)
            state.destruct(account)
          }
          f.output = EMPTY
          f.pc = pc
          f.sp = sp
          f.gas = gas
          return Status.success
        }
        case Op.LOG0:
        case Op.LOG1:
        case Op.LOG2:
        case Op.LOG3:
        case Op.LOG4: {
          if (msg.isStatic) return halt(f, pc, sp, Halt.writeProtection)
          const n = op - Op.LOG0
          sp -= 2 + n
          const offset = st[sp + n + 1]!
          const size = st[sp + n]!
          gas -= logCost(size)
          if (gas < 0) break outOfGas
          gas = chargeMemory(mem, offset, size, gas)
          if (gas < 0) break outOfGas
          const topics: bigint[] = []
          for (let i = n - 1; i >= 0; i--) topics.push(st[sp + i]!)
          const log = { address: msg.to, topics, data: size === 0n ? EMPTY : mem.slice(Number(offset), Number(size)) }
          state.log(log)
          if (tracer !== undefined) tracer.onLog?.(log, msg)
          break
        }
        default:
          // The static gas table refuses the bytes a fork does not define before the loop's switch: none reaches here.
          return halt(f, pc, sp, Halt.invalidOpcode)
      }
      f.sp = sp
      f.gas = gas
      return NEXT
    }
    return halt(f, pc, sp, Halt.outOfGas)
  }
}

/** An exceptional halt: the frame's gas is gone. */
function halt(f: Frame, pc: number, sp: number, reason: Halt): number {
  f.halt = reason
  f.gasBase = 0n
  f.pc = pc
  f.sp = sp
  f.gas = 0
  return Status.error
}

/**
 * Charges the growth of memory to cover [offset, offset + size) and grows it: the gas left, or -1 when it cannot be
 * paid. A zero size touches no memory, whatever the offset.
 */
function chargeMemory(mem: Memory, offset: bigint, size: bigint, gas: number): number {
  if (size === 0n) return gas
  if (offset > MAX_MEMORY_BIG || size > MAX_MEMORY_BIG) return -1
  const end = Number(offset) + Number(size)
  if (end <= mem.size) return gas
  if (end > MAX_MEMORY_BYTES) return -1
  const cost = memoryExpansionCost(mem.size, end)
  if (gas < cost) return -1
  mem.grow(end)
  return gas - cost
}

function result(status: Status, gasLeft: number, gasBase: bigint, output: Uint8Array, halt?: Halt, error?: string): CallResult {
  return { status, gasLeft, gasBase, output, halt, error: halt === undefined ? undefined : (error ?? haltMessage(halt)), created: undefined }
}

/** A call or create refused before it starts (depth, balance): the caller's gas comes back, as geth's. */
function refused(msg: Message, why: Halt): CallResult {
  return result(Status.revert, msg.gas, msg.gasBase, EMPTY, why)
}

/** Copies `size` bytes of `src` from `from` into `dst` at `at`, zeros past the end of `src`. */
function copyPadded(dst: Uint8Array, at: number, src: Uint8Array, from: bigint, size: number): void {
  const start = from < BigInt(src.length) ? Number(from) : src.length
  const n = Math.min(size, src.length - start)
  if (n > 0) dst.set(src.subarray(start, start + n), at)
  if (n < size) dst.fill(0, at + Math.max(n, 0), at + size)
}

function expMod256(base: bigint, exp: bigint): bigint {
  let r = 1n
  let b = base
  let e = exp
  while (e > 0n) {
    if (e & 1n) r = (r * b) & MAX_UINT256
    e >>= 1n
    if (e > 0n) b = (b * b) & MAX_UINT256
  }
  return r
}

export function createAddress(sender: bigint, nonce: bigint): bigint {
  const enc = RLP.encode([addressToBytes(sender), bigIntToUnpaddedBytes(nonce)])
  return bytesToWord(keccak256(enc).subarray(12))
}

export function createAddress2(sender: bigint, salt: bigint, init: Uint8Array): bigint {
  const buf = new Uint8Array(85)
  buf[0] = 0xff
  buf.set(addressToBytes(sender), 1)
  writeWord(buf, 21, salt)
  buf.set(keccak256(init), 53)
  return bytesToWord(keccak256(buf).subarray(12))
}
