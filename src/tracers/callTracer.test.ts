import { describe, expect, it } from 'vitest'
import { type Item, assemble, REVERT_NOPE } from '../testing/asm.js'
import { uint256 as word } from '../testing/words.js'
import { hexToBytes, toQuantity } from '../util/hex.js'
import { type CallFrame, CallTracer, type CallTracerOptions } from './callTracer.js'
import { createAddress } from '../evm/interpreter.js'
import { addressHex } from './format.js'
import { CONTRACT, OTHER, SENDER, THIRD, account, traced } from './testEvm.js'

// The call tracer against replies worked out from geth's callTracer (eth/tracers/native/call.go) and its EVM's
// OnEnter/OnExit (core/vm/evm.go): the frames a call makes, with gas as the 63/64 rule hands it out.

const push20 = (a: bigint) => `0x${a.toString(16).padStart(40, '0')}` as const
/** CALL-family arguments, pushed last to first: gas, address, [value,] in offset/size, out offset/size. */
function call(
  op: 'CALL' | 'CALLCODE' | 'DELEGATECALL' | 'STATICCALL',
  to: bigint,
  o: { gas?: Item; value?: `0x${string}`; outSize?: `0x${string}` } = {},
): Item[] {
  const value: Item[] = op === 'CALL' || op === 'CALLCODE' ? [o.value ?? '0x00'] : []
  return [o.outSize ?? '0x00', '0x00', '0x00', '0x00', ...value, push20(to), o.gas ?? 'GAS', op]
}
const code = (...parts: string[]) => `0x${parts.map((p) => p.replace(/^0x/, '')).join('')}`
const RETURN_SLOT0: Item[] = ['0x00', 'SLOAD', '0x00', 'MSTORE', '0x20', '0x00', 'RETURN']
const hex = addressHex

function trace(
  accounts: Parameters<typeof traced>[0],
  options: CallTracerOptions = {},
  over: Parameters<typeof traced>[2] = {},
  o: Parameters<typeof traced>[3] = {},
) {
  return traced(accounts, new CallTracer(options), over, o)
}

describe('the call tracer', () => {
  it('gives the frames with their gas, output and logs where they were emitted', () => {
    // SSTORE(5, 42); STATICCALL a contract returning its slot 0 (42); LOG1(0xbeef) of the answer; return it.
    const caller = assemble([
      '0x2a',
      '0x05',
      'SSTORE',
      ...call('STATICCALL', OTHER, { outSize: '0x20' }),
      'POP',
      '0xbeef',
      '0x20',
      '0x00',
      'LOG1',
      '0x20',
      '0x00',
      'RETURN',
    ])
    const { result, outcome } = trace(
      [
        [CONTRACT, account(caller)],
        [OTHER, account(assemble(RETURN_SLOT0), { storage: [[0n, 42n]] })],
      ],
      { withLog: true },
    )
    // 979,000 after the intrinsic gas; 6 + 22,100 + 12 + 3 + 2 before the STATICCALL, which pays a word of memory and
    // a cold account: 954,274 left, of which all but a 64th goes: 939,364. The callee spends 3 + 2,100 + 3 + 6 + 6.
    expect(result).toEqual({
      from: hex(SENDER),
      gas: toQuantity(1_000_000),
      gasUsed: toQuantity(outcome.gasUsed),
      to: hex(CONTRACT),
      input: '0x',
      output: word(42),
      calls: [
        {
          from: hex(CONTRACT),
          gas: toQuantity(939_364),
          gasUsed: toQuantity(2118),
          to: hex(OTHER),
          input: '0x',
          output: word(42),
          type: 'STATICCALL',
        },
      ],
      logs: [{ address: hex(CONTRACT), topics: [word(0xbeef)], data: word(42), index: '0x0', position: '0x1' }],
      value: '0x0',
      type: 'CALL',
    })
    // geth's key order.
    expect(Object.keys(result)).toEqual(['from', 'gas', 'gasUsed', 'to', 'input', 'output', 'calls', 'logs', 'value', 'type'])
  })

  it("numbers logs from the block's earlier ones, and drops the logs of failed frames and of what they called", () => {
    // LOG0; CALL OTHER (which LOG0s, calls THIRD (which LOG0s), then reverts); LOG0.
    const log0: Item[] = ['0x00', '0x00', 'LOG0']
    const top = assemble([...log0, ...call('CALL', OTHER), 'POP', ...log0, 'STOP'])
    const other = assemble([...log0, ...call('CALL', THIRD), 'POP', '0x00', '0x00', 'REVERT'])
    const accounts: Parameters<typeof traced>[0] = [
      [CONTRACT, account(top)],
      [OTHER, account(other)],
      [THIRD, account(assemble(log0))],
    ]
    const { result } = trace(accounts, { withLog: true }, {}, { context: { logIndex: 5 } })
    const log = (address: bigint, index: number, position: number) => ({
      address: hex(address),
      topics: [],
      data: '0x',
      index: toQuantity(index),
      position: toQuantity(position),
    })
    expect(result.logs).toEqual([log(CONTRACT, 5, 0), log(CONTRACT, 6, 1)])
    expect(result.calls![0]).toMatchObject({ type: 'CALL', error: 'execution reverted' })
    expect(result.calls![0]).not.toHaveProperty('logs')
    expect(result.calls![0]!.calls![0]).not.toHaveProperty('logs')
    expect(result.calls![0]!.calls![0]).not.toHaveProperty('error')
    // Without withLog, no logs at all.
    expect(trace(accounts).result).not.toHaveProperty('logs')
  })

  it("decodes a revert's reason and says geth's words for halts", () => {
    const { result } = trace([
      [CONTRACT, account(assemble([...call('CALL', OTHER), ...call('CALL', THIRD, { gas: '0x0100' }), 'STOP']))],
      [OTHER, account(assemble(REVERT_NOPE))],
      [THIRD, account(assemble([{ label: 'top' }, { target: 'top' }, 'JUMP']))],
    ])
    const [reverted, oog] = result.calls!
    expect(reverted).toMatchObject({ error: 'execution reverted', revertReason: 'nope' })
    expect(reverted!.output!.slice(0, 10)).toBe('0x08c379a0')
    expect(oog).toEqual({
      from: hex(CONTRACT),
      gas: '0x100',
      gasUsed: '0x100',
      to: hex(THIRD),
      input: '0x',
      error: 'out of gas',
      value: '0x0',
      type: 'CALL',
    })
  })

  it('shows a call refused for want of balance, and one past 1,024 frames, with their gas untouched', () => {
    const poor = trace([[CONTRACT, account(assemble([...call('CALL', OTHER, { gas: '0x1000', value: '0x01' }), 'STOP']))]]).result
    expect(poor.calls).toEqual([
      {
        from: hex(CONTRACT),
        gas: toQuantity(0x1000 + 2300),
        gasUsed: '0x0',
        to: hex(OTHER),
        input: '0x',
        error: 'insufficient balance for transfer',
        value: '0x1',
        type: 'CALL',
      },
    ])
    // A contract calling itself with all it has: 1,025 frames, the last refused.
    const deep = trace([[CONTRACT, account(assemble([...call('CALL', CONTRACT), 'STOP']))]], {}, { gasLimit: 1n << 40n }).result
    let frame: CallFrame = deep
    let frames = 1
    while (frame.calls !== undefined) {
      frame = frame.calls[0]!
      frames++
    }
    expect(frames).toBe(1026)
    expect(frame).toMatchObject({ error: 'max call depth exceeded', gasUsed: '0x0', type: 'CALL' })
  })

  it('shows what DELEGATECALL, CALLCODE and STATICCALL run as geth: who calls, whose code, which value', () => {
    const { result } = trace(
      [
        [
          CONTRACT,
          account(assemble([...call('DELEGATECALL', OTHER), ...call('CALLCODE', OTHER, { value: '0x02' }), ...call('STATICCALL', 4n), 'STOP']), {
            balance: 10n,
          }),
        ],
        [OTHER, account('0x00')],
      ],
      {},
      { value: 7n },
    )
    expect(result.value).toBe('0x7')
    expect(result.calls!.map(({ from, to, value, type }) => ({ from, to, value, type }))).toEqual([
      // The delegate runs in the caller's context and sees its value.
      { from: hex(CONTRACT), to: hex(OTHER), value: '0x7', type: 'DELEGATECALL' },
      { from: hex(CONTRACT), to: hex(OTHER), value: '0x2', type: 'CALLCODE' },
      // A precompile is a frame too; a STATICCALL has no value.
      { from: hex(CONTRACT), to: hex(4n), value: undefined, type: 'STATICCALL' },
    ])
  })

  it('shows a creation with the code it deployed, and a failed create without an address', () => {
    // Init code returning the one byte 0xfe.
    const init = assemble(['0xfe', '0x00', 'MSTORE8', '0x01', '0x00', 'RETURN'])
    const created = trace([], {}, { to: undefined, data: hexToBytes(init), value: 5n }).result
    expect(created).toMatchObject({
      from: hex(SENDER),
      to: hex(createAddress(SENDER, 0n)),
      input: init,
      output: '0xfe',
      value: '0x5',
      type: 'CREATE',
    })
    // CREATE2(0, 27, 5, salt 0) of init code that reverts (REVERT(0, 0)), stored right-aligned in word 0.
    const factory = code(assemble(['0x60006000fd', '0x00', 'MSTORE', '0x00', '0x05', '0x1b', '0x00']), 'f5', '00')
    const { result } = trace([[CONTRACT, account(factory)]])
    expect(result.calls).toHaveLength(1)
    const failed = result.calls![0]!
    expect(failed).toMatchObject({ from: hex(CONTRACT), input: '0x60006000fd', error: 'execution reverted', value: '0x0', type: 'CREATE2' })
    expect(failed).not.toHaveProperty('to')
    expect(failed).not.toHaveProperty('output')
  })

  it('reports a SELFDESTRUCT as a frame of its own, with the balance it sends', () => {
    const { result } = trace([[CONTRACT, account(code(assemble([push20(THIRD)]), 'ff'), { balance: 1000n })]])
    expect(result.calls).toEqual([
      { from: hex(CONTRACT), gas: '0x0', gasUsed: '0x0', to: hex(THIRD), input: '0x', value: '0x3e8', type: 'SELFDESTRUCT' },
    ])
    expect(trace([[CONTRACT, account(code(assemble([push20(THIRD)]), 'ff'), { balance: 1000n })]], { onlyTopCall: true }).result).not.toHaveProperty(
      'calls',
    )
  })

  it('with onlyTopCall, the transaction’s frame and its own logs only', () => {
    const top = assemble(['0x00', '0x00', 'LOG0', ...call('CALL', OTHER), 'STOP'])
    const { result } = trace(
      [
        [CONTRACT, account(top)],
        [OTHER, account(assemble(['0x00', '0x00', 'LOG0']))],
      ],
      { onlyTopCall: true, withLog: true },
    )
    expect(result).not.toHaveProperty('calls')
    expect(result.logs).toHaveLength(1)
  })
})
