import { keccak256 } from '../../crypto/keccak.js'
import type { BlockEnv } from '../../evm/env.js'
import { TxRejectedError } from '../../evm/errors.js'
import { Evm } from '../../evm/interpreter.js'
import { MapStateSource } from '../../evm/mapState.js'
import { EMPTY_CODE, WorldState } from '../../evm/state.js'
import { applyTransaction, type EvmTransaction } from '../../evm/transaction.js'
import { addressToBytes, bytesToWord, wordToBytes } from '../../evm/words.js'
import type { PlainAccount } from '../../state/accountsRoot.js'
import { bytesToHex, type Hex } from '../../util/hex.js'
import type { StateTestExecutor, StateTestInput, StateTestOutcome, TxLog } from './types.js'

// `--evm sponge`: each case through Sponge's own EVM (src/evm) on a fresh state over the case's pre-state maps.

const address = (hex: Hex): bigint => BigInt(hex)
const hexAddress = (a: bigint): Hex => bytesToHex(addressToBytes(a))

/** geth's state tests answer BLOCKHASH with keccak-256 of the number's decimal text. */
function testBlockHash(n: bigint): bigint {
  return bytesToWord(keccak256(new TextEncoder().encode(n.toString())))
}

function run(input: StateTestInput): StateTestOutcome {
  const { env, tx } = input
  const fork = input.fork
  const source = new MapStateSource([...input.pre].map(([a, acc]) => [address(a), acc]))
  const state = new WorldState(source)
  const block: BlockEnv = {
    coinbase: address(env.coinbase),
    number: env.number,
    timestamp: env.timestamp,
    gasLimit: env.gasLimit,
    prevRandao: bytesToWord(env.prevRandao),
    difficulty: env.difficulty,
    baseFee: env.baseFee ?? 0n,
    blobBaseFee: env.blob?.baseFee ?? 0n,
    chainId: env.chainId,
    blockHash: testBlockHash,
  }
  const evmTx: EvmTransaction = {
    type: tx.type,
    sender: address(tx.sender),
    to: tx.to === undefined ? undefined : address(tx.to),
    nonce: tx.nonce,
    gasLimit: tx.gasLimit,
    value: tx.value,
    data: tx.data,
    gasPrice: tx.gasPrice ?? tx.maxFeePerGas ?? 0n,
    maxFeePerGas: tx.maxFeePerGas ?? tx.gasPrice ?? 0n,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas ?? tx.gasPrice ?? 0n,
    accessList: tx.accessList.map((e) => ({ address: address(e.address), storageKeys: e.storageKeys })),
    maxFeePerBlobGas: tx.maxFeePerBlobGas ?? 0n,
    blobHashes: tx.blobVersionedHashes.map(bytesToWord),
    authorizations: tx.authorizationList.map((a) => ({
      chainId: a.chainId,
      address: address(a.address),
      nonce: a.nonce,
      yParity: a.yParity,
      r: a.r,
      s: a.s,
    })),
  }
  const evm = new Evm({ fork, block, state })
  let logs: TxLog[]
  try {
    const out = applyTransaction(evm, evmTx, { maxBlobsPerBlock: env.blob?.max ?? 0 })
    logs = out.logs.map((l) => ({ address: hexAddress(l.address), topics: l.topics.map(wordToBytes), data: l.data }))
    state.endTransaction()
  } catch (e) {
    if (e instanceof TxRejectedError) return { kind: 'rejected', reason: `${e.kind}: ${e.message}` }
    throw e
  }
  const accounts = new Map<Hex, PlainAccount>(input.pre)
  for (const c of state.changes()) {
    const key = hexAddress(c.address)
    if (c.account === undefined) {
      accounts.delete(key)
      continue
    }
    const before = accounts.get(key)
    const storage = new Map(c.storageWiped || before === undefined ? [] : before.storage)
    for (const [k, v] of c.storage) storage.set(k, v)
    const code = c.account.code ?? before?.code ?? EMPTY_CODE
    accounts.set(key, { nonce: c.account.nonce, balance: c.account.balance, code, storage })
  }
  return { kind: 'accounts', accounts, logs }
}

export function createExecutor(): StateTestExecutor {
  return { run }
}
