import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { LOOP_FOREVER, assemble, REVERT_NOPE } from '../testing/asm.js'
import { uint256 as word } from '../testing/words.js'
import { hexToBytes } from '../util/hex.js'
import { TraceTooLargeError } from './errors.js'
import { type StructLog, StructLogger, type StructLoggerOptions, type StructLoggerResult } from './structLogger.js'
import { CONTRACT, OTHER, account, traced } from './testEvm.js'

// The struct logger against entries worked out by hand from geth's interpreter (core/vm/interpreter.go: OnOpcode with
// the gas before the step and its constant plus dynamic cost) and logger (eth/tracers/logger/logger.go).

const OTHER_HEX = `0x${OTHER.toString(16).padStart(40, '0')}` as const
/** Opcodes the assembler leaves out, as raw code to splice between assembled parts. */
const CREATE = 'f0'
const code = (...parts: string[]) => `0x${parts.map((p) => p.replace(/^0x/, '')).join('')}`

/** The reply of a traced run, parsed, with its text. */
function trace(
  accounts: Parameters<typeof traced>[0],
  options: StructLoggerOptions = {},
  over: Parameters<typeof traced>[2] = {},
  o: Parameters<typeof traced>[3] = {},
): StructLoggerResult & { text: string } {
  const text = Buffer.concat(traced(accounts, new StructLogger(options), over, o).result).toString('utf8')
  return { ...(JSON.parse(text) as StructLoggerResult), text }
}

/** Within each frame, a step's gas is the previous step's less its cost, or plus what a callee gave back. */
function checkGasFlow(logs: StructLog[]): void {
  for (let i = 1; i < logs.length; i++) {
    const prev = logs[i - 1]!
    const cur = logs[i]!
    if (cur.depth === prev.depth) expect(cur.gas, `step ${i}`).toBe(prev.gas - prev.gasCost)
  }
}

describe('the struct logger', () => {
  it("logs each step with geth's gas, cost, stack and the contract's storage at SLOAD and SSTORE", () => {
    // SSTORE(5, 42); MSTORE(0, SLOAD(5)); RETURN(0, 32)
    const program = assemble(['0x2a', '0x05', 'SSTORE', '0x05', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN'])
    const result = trace([[CONTRACT, account(program)]], {}, { gasLimit: 100_000n })
    const slot5 = { [word(5)]: word(42) }
    expect(result.structLogs).toEqual([
      { pc: 0, op: 'PUSH1', gas: 79000, gasCost: 3, depth: 1, stack: [] },
      { pc: 2, op: 'PUSH1', gas: 78997, gasCost: 3, depth: 1, stack: ['0x2a'] },
      // A cold slot set from zero: 2,100 + 20,000.
      { pc: 4, op: 'SSTORE', gas: 78994, gasCost: 22100, depth: 1, stack: ['0x2a', '0x5'], storage: slot5 },
      { pc: 5, op: 'PUSH1', gas: 56894, gasCost: 3, depth: 1, stack: [] },
      { pc: 7, op: 'SLOAD', gas: 56891, gasCost: 100, depth: 1, stack: ['0x5'], storage: slot5 },
      { pc: 8, op: 'PUSH1', gas: 56791, gasCost: 3, depth: 1, stack: ['0x2a'] },
      // 3 and a word of memory.
      { pc: 10, op: 'MSTORE', gas: 56788, gasCost: 6, depth: 1, stack: ['0x2a', '0x0'] },
      { pc: 11, op: 'PUSH1', gas: 56782, gasCost: 3, depth: 1, stack: [] },
      { pc: 13, op: 'PUSH1', gas: 56779, gasCost: 3, depth: 1, stack: ['0x20'] },
      { pc: 15, op: 'RETURN', gas: 56776, gasCost: 0, depth: 1, stack: ['0x20', '0x0'] },
    ])
    expect(result).toMatchObject({ gas: 100_000 - 56776, failed: false, returnValue: word(42) })
    // geth's key order, and nothing for what is unset.
    expect(result.text).toContain(
      `{"pc":4,"op":"SSTORE","gas":78994,"gasCost":22100,"depth":1,"stack":["0x2a","0x5"],"storage":{"${word(5)}":"${word(42)}"}},`,
    )
    expect(result.text.startsWith(`{"gas":43224,"failed":false,"returnValue":"${word(42)}","structLogs":[{"pc":0,`)).toBe(true)
  })

  it('keeps every slot the contract touched, in order, and shows the refund once there is one', () => {
    // Slot 1 holds 7: SLOAD(9), SSTORE(1, 0) (a clear: 4,800 refunded), SLOAD(3).
    const program = assemble(['0x09', 'SLOAD', 'POP', '0x00', '0x01', 'SSTORE', '0x03', 'SLOAD', 'STOP'])
    const result = trace([[CONTRACT, account(program, { storage: [[1n, 7n]] })]])
    const withStorage = result.structLogs.filter((l) => l.storage !== undefined)
    expect(withStorage.map((l) => l.storage)).toEqual([
      { [word(9)]: word(0) },
      { [word(1)]: word(0), [word(9)]: word(0) },
      { [word(1)]: word(0), [word(3)]: word(0), [word(9)]: word(0) },
    ])
    expect(Object.keys(withStorage[2]!.storage!)).toEqual([word(1), word(3), word(9)])
    // As geth: the SSTORE's own step shows the refund its gas function granted.
    expect(result.structLogs.map((l) => l.refund)).toEqual([undefined, undefined, undefined, undefined, undefined, 4800, 4800, 4800, 4800])
  })

  it('counts the gas a CALL gives its callee in its cost, and not what a CREATE gives', () => {
    // CALL(gas 0x1000, OTHER, 0, 0, 0, 0, 0), then CREATE(0, 0, 0) of nothing.
    const program = code(assemble(['0x00', '0x00', '0x00', '0x00', '0x00', OTHER_HEX, '0x1000', 'CALL', 'POP', '0x00', '0x00', '0x00']), CREATE, '00')
    const callee = assemble(['0x01', 'POP', 'STOP'])
    const result = trace([
      [CONTRACT, account(program)],
      [OTHER, account(callee)],
    ])
    const logs = result.structLogs
    checkGasFlow(logs)
    const call = logs.findIndex((l) => l.op === 'CALL')
    // Cold account (2,600) and the 0x1000 given; the callee starts with 0x1000.
    expect(logs[call]!.gasCost).toBe(2600 + 0x1000)
    expect(logs[call + 1]).toMatchObject({ depth: 2, gas: 0x1000, op: 'PUSH1' })
    // The callee used 3 + 2 + 0: the rest came back.
    expect(logs[call + 4]).toMatchObject({ depth: 1, op: 'POP', gas: logs[call]!.gas - logs[call]!.gasCost + 0x1000 - 5 })
    const create = logs.find((l) => l.op === 'CREATE')!
    expect(create.gasCost).toBe(32000)
    expect(logs.at(-1)).toMatchObject({ op: 'STOP', depth: 1 })
  })

  it("puts geth's error on a step that runs out of gas, with the cost it could not pay", () => {
    // JUMPDEST, PUSH2, JUMP: 12 gas a turn. 30 gas: two turns, then the third JUMP (8) finds 2.
    const result = trace([[CONTRACT, account(LOOP_FOREVER)]], {}, { gasLimit: 21_000n + 30n })
    checkGasFlow(result.structLogs)
    expect(result.structLogs).toHaveLength(9)
    expect(result.structLogs.at(-1)).toMatchObject({ op: 'JUMP', gas: 2, gasCost: 8, error: 'out of gas' })
    expect(result).toMatchObject({ failed: true, returnValue: '0x', gas: 21_030 })
  })

  it('shows a revert’s data as the return value, with no error on the REVERT step', () => {
    const result = trace([[CONTRACT, account(assemble(REVERT_NOPE))]])
    expect(result.failed).toBe(true)
    expect(result.returnValue.slice(0, 10)).toBe('0x08c379a0')
    expect(result.structLogs.at(-1)!.op).toBe('REVERT')
    expect(result.structLogs.at(-1)).not.toHaveProperty('error')
  })

  it('logs a step on an invalid opcode with no cost and no error, as geth (its work fails, not its checks)', () => {
    const result = trace([[CONTRACT, account(assemble(['0x01', '0x02', 'JUMPDEST', 'INVALID']))]], {}, { gasLimit: 100_000n })
    expect(result.structLogs.slice(-2)).toEqual([
      { pc: 4, op: 'JUMPDEST', gas: 78994, gasCost: 1, depth: 1, stack: ['0x1', '0x2'] },
      { pc: 5, op: 'INVALID', gas: 78993, gasCost: 0, depth: 1, stack: ['0x1', '0x2'] },
    ])
    expect(result).toMatchObject({ failed: true, returnValue: '0x', gas: 100_000 })
  })

  it("logs a stack underflow on its step with geth's words and the opcode's constant cost, first step or not", () => {
    const first = trace([[CONTRACT, account('0x01')]], {}, { gasLimit: 100_000n })
    expect(first.structLogs).toEqual([{ pc: 0, op: 'ADD', gas: 79000, gasCost: 3, depth: 1, stack: [], error: 'stack underflow (0 <=> 2)' }])
    const later = trace([[CONTRACT, account(assemble(['0x01', 'ADD']))]], {}, { gasLimit: 100_000n })
    expect(later.structLogs).toEqual([
      { pc: 0, op: 'PUSH1', gas: 79000, gasCost: 3, depth: 1, stack: [] },
      { pc: 2, op: 'ADD', gas: 78997, gasCost: 3, depth: 1, stack: ['0x1'], error: 'stack underflow (1 <=> 2)' },
    ])
  })

  it('logs a callee’s halt right after its own callee returned, with the gas it resumed with', () => {
    // CALL(0x1000, OTHER, …) then ADD on the one item the call left: underflow.
    const program = assemble(['0x00', '0x00', '0x00', '0x00', '0x00', OTHER_HEX, '0x1000', 'CALL', 'ADD'])
    const result = trace([
      [CONTRACT, account(program)],
      [OTHER, account('0x00')],
    ])
    const [call, stop, add] = result.structLogs.slice(-3)
    expect(stop).toMatchObject({ op: 'STOP', depth: 2, gas: 0x1000, gasCost: 0 })
    expect(add).toMatchObject({ op: 'ADD', depth: 1, gas: call!.gas - call!.gasCost + 0x1000, gasCost: 3, error: 'stack underflow (1 <=> 2)' })
  })

  it("costs a CREATE the interpreter refuses (too little balance) what it charged, as geth's refused create", () => {
    // CREATE(value 1, 0, 0) with no balance: refused without a frame, 0 pushed.
    const program = code(assemble(['0x00', '0x00', '0x01']), CREATE, assemble(['POP', 'STOP']))
    const result = trace([[CONTRACT, account(program)]])
    checkGasFlow(result.structLogs)
    expect(result.structLogs.find((l) => l.op === 'CREATE')!.gasCost).toBe(32000)
    expect(result.structLogs.find((l) => l.op === 'POP')!.stack).toEqual(['0x0'])
  })

  it('logs a callee that halts on its first opcode, invalid or short of stack', () => {
    const program = assemble(['0x00', '0x00', '0x00', '0x00', '0x00', OTHER_HEX, '0x1000', 'CALL', 'STOP'])
    const invalid = trace([
      [CONTRACT, account(program)],
      [OTHER, account('0xfe')],
    ]).structLogs
    expect(invalid.at(-2)).toEqual({ pc: 0, op: 'INVALID', gas: 0x1000, gasCost: 0, depth: 2, stack: [] })
    const short = trace([
      [CONTRACT, account(program)],
      [OTHER, account('0x50')],
    ]).structLogs
    expect(short.at(-2)).toEqual({ pc: 0, op: 'POP', gas: 0x1000, gasCost: 2, depth: 2, stack: [], error: 'stack underflow (0 <=> 1)' })
    expect(short.at(-1)).toMatchObject({ op: 'STOP', depth: 1 })
  })

  it('shows memory as 0x-prefixed words and the return data on request, no stack or storage when disabled', () => {
    // STATICCALL(GAS, OTHER, 0, 0, 0, 0) to code returning 32 bytes of 0xff, then MSTORE8(0x21, 1), SSTORE.
    const callee = assemble(['0xff', '0x00', 'MSTORE8', '0x01', '0x00', 'RETURN'])
    const program = assemble([
      '0x00',
      '0x00',
      '0x00',
      '0x00',
      OTHER_HEX,
      'GAS',
      'STATICCALL',
      '0x01',
      '0x21',
      'MSTORE8',
      '0x01',
      '0x01',
      'SSTORE',
      'STOP',
    ])
    const options = { disableStack: true, disableStorage: true, enableMemory: true, enableReturnData: true }
    const result = trace(
      [
        [CONTRACT, account(program)],
        [OTHER, account(callee)],
      ],
      options,
    )
    const last = result.structLogs.at(-1)!
    expect(last).toEqual({
      pc: last.pc,
      op: 'STOP',
      gas: last.gas,
      gasCost: 0,
      depth: 1,
      returnData: '0xff',
      memory: [word(0), `0x00${'01'.padEnd(62, '0')}`],
    })
    expect(result.structLogs.find((l) => l.op === 'SSTORE')!.storage).toBeUndefined()
    expect(result.structLogs[0]!.memory).toBeUndefined()
  })

  it('returns the code a create deployed', () => {
    // Init code returning the one byte 0x00 it stores at 31.
    const init = assemble(['0x00', '0x00', 'MSTORE', '0x01', '0x1f', 'RETURN'])
    const result = trace([], {}, { to: undefined, data: hexToBytes(init) })
    expect(result).toMatchObject({ failed: false, returnValue: '0x00' })
  })

  it(`refuses a trace past 500,000 steps with the error the client sees, in well under geth's 5 s`, () => {
    // A loop of many stack items, as compiled code has, on 16 M gas: far more steps than the bound.
    const program = assemble([
      ...Array.from({ length: 12 }, () => '0x01' as const),
      { label: 'top' },
      'DUP3',
      'DUP5',
      'ADD',
      'POP',
      { target: 'top' },
      'JUMP',
    ])
    const started = performance.now()
    const cpu = process.cpuUsage()
    let error: unknown
    try {
      traced([[CONTRACT, account(program)]], new StructLogger(), { gasLimit: 16_000_000n })
    } catch (e) {
      error = e
    }
    const ms = performance.now() - started
    const used = process.cpuUsage(cpu)
    const cpuMs = (used.user + used.system) / 1000
    expect(error).toBeInstanceOf(TraceTooLargeError)
    expect((error as TraceTooLargeError).message).toBe('trace exceeds 500000 steps')
    expect((error as TraceTooLargeError).kind).toBe('traceTooLarge')
    // Under vitest's module transform, which slows the imports a hot loop reads: `node` on dist/ is faster still.
    console.log(
      `struct logger: 500,000 steps of 12-15 stack items in ${ms.toFixed(0)} ms, ${cpuMs.toFixed(0)} ms of CPU (${((cpuMs * 1e6) / 500_000).toFixed(0)} ns a step)`,
    )
  })

  it('refuses a trace whose captured memory would pass 256 MiB', () => {
    // MSTORE at 2^27 (128 MiB of memory; no cap on a call's gas in call mode), then STOP: 2^28 + 64 hex bytes.
    const program = assemble(['0x01', '0x08000000', 'MSTORE', 'STOP'])
    const run = () => traced([[CONTRACT, account(program)]], new StructLogger({ enableMemory: true }), { gasLimit: 1n << 40n }, { fork: Fork.prague })
    expect(run).toThrow(new TraceTooLargeError('trace memory capture exceeds its bound'))
  })
})
