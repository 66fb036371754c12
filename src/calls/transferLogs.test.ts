import { describe, expect, it } from 'vitest'
import { Fork } from '../chain/evmFork.js'
import { Evm } from '../evm/interpreter.js'
import { MapStateSource } from '../evm/mapState.js'
import { WorldState } from '../evm/state.js'
import { applyTransaction } from '../evm/transaction.js'
import { addressToBytes, bytesToWord } from '../evm/words.js'
import { assemble } from '../testing/asm.js'
import { BLOCK, account, transaction } from '../tracers/testEvm.js'
import { bytesToHex } from '../util/hex.js'
import { SimLogTracer } from './transferLogs.js'

// The simulator's logs as geth's logtracer.go keeps them, on Sponge's EVM: a frame's logs go to its caller unless it
// fails, every log made takes a number, and with traceTransfers each ether move is a Transfer log of 0xeeee…eeee.

const SENDER = 0xa11cen
const X = 0xc0de01n
const Y = 0xc0de02n
const Z = 0xc0de03n
const BENEFICIARY = 0xbeefn
const TRANSFER = 0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeen
const push20 = (a: bigint) => bytesToHex(addressToBytes(a)) as `0x${string}`

/** Y: LOG0, then REVERT. */
const LOG_AND_REVERT = assemble(['PUSH0', 'PUSH0', 'LOG0', 'PUSH0', 'PUSH0', 'REVERT'])
/** X: CALL(Y) with 1 wei, STATICCALL(Z) with 10,000 gas (all of which its failure takes), DELEGATECALL(Z), then LOG0. */
const CALLER = assemble([
  ...(['PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', '0x01', push20(Y), 'GAS', 'CALL', 'POP'] as const),
  ...(['PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', push20(Z), '0x2710', 'STATICCALL', 'POP'] as const),
  ...(['PUSH0', 'PUSH0', 'PUSH0', 'PUSH0', push20(Z), 'GAS', 'DELEGATECALL', 'POP'] as const),
  ...(['PUSH0', 'PUSH0', 'LOG0', 'STOP'] as const),
])
/** Z: SELFDESTRUCT(BENEFICIARY). */
const DESTRUCTS = `${assemble([push20(BENEFICIARY)])}ff`

function run(traceTransfers: boolean, tracer = new SimLogTracer(traceTransfers), value = 5n, to = X) {
  const state = new WorldState(
    new MapStateSource([
      [SENDER, account('0x', { balance: 10n ** 18n })],
      [X, account(CALLER, { balance: 100n })],
      [Y, account(LOG_AND_REVERT)],
      [Z, account(DESTRUCTS, { balance: 7n })],
    ]),
  )
  const evm = new Evm({ fork: Fork.osaka, block: BLOCK, state, tracer })
  tracer.reset()
  applyTransaction(evm, transaction({ sender: SENDER, to, value }), { maxBlobsPerBlock: 6 }, { call: true })
  state.endTransaction()
  return tracer.logs().map(({ log, index }) => ({
    index,
    address: log.address,
    topics: log.topics.length === 3 ? [log.topics[1], log.topics[2]] : log.topics,
    value: log.address === TRANSFER ? bytesToWord(log.data) : undefined,
  }))
}

describe('the simulator’s log tracer', () => {
  it('drops a failed frame’s logs but counts them; a delegated frame’s SELFDESTRUCT is the caller’s move', () => {
    // Y's log (0) goes with Y's revert; Z's SELFDESTRUCT under STATICCALL fails (write protection) before it moves
    // anything; under DELEGATECALL it runs as X, with nothing logged without traceTransfers.
    expect(run(false)).toEqual([{ index: 1, address: X, topics: [], value: undefined }])
  })

  it('with traceTransfers, logs each value moved by a call or a SELFDESTRUCT, in order, numbered across it', () => {
    expect(run(true)).toEqual([
      // The transaction's value; then the 1 wei to Y (1) and Y's log (2), dropped with Y (which gives the wei back);
      // the failed SELFDESTRUCT under STATICCALL, not numbered; X's balance (100 + 5) to the beneficiary by the
      // delegated SELFDESTRUCT; X's log.
      { index: 0, address: TRANSFER, topics: [SENDER, X], value: 5n },
      { index: 3, address: TRANSFER, topics: [X, BENEFICIARY], value: 105n },
      { index: 4, address: X, topics: [], value: undefined },
    ])
  })

  it('numbers on across calls, and keeps nothing of a call that failed', () => {
    const tracer = new SimLogTracer(true)
    run(true, tracer)
    expect(run(true, tracer, 0n, Y)).toEqual([])
    expect(run(true, tracer, 1n, Z)).toEqual([
      { index: 6, address: TRANSFER, topics: [SENDER, Z], value: 1n },
      { index: 7, address: TRANSFER, topics: [Z, BENEFICIARY], value: 8n },
    ])
  })
})
