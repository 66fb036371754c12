import { createBlock } from '@ethereumjs/block'
import { type Common, Mainnet, createCustomCommon } from '@ethereumjs/common'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { createTxFromRLP } from '@ethereumjs/tx'
import { Account, Address, bigIntToBytes, setLengthLeft } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { ETHEREUMJS_HARDFORK } from '../../chain/evmFork.js'
import { customCrypto } from '../../crypto/customCrypto.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import type { StateTestExecutor, StateTestInput, StateTestOutcome } from './types.js'

// `--evm ethereumjs`: the baseline. EthereumJS 10.1.3's VM runs the transaction with runTx on a fresh in-memory state
// holding the pre-state, as EthereumJS's own state-test runner does (test/tester/runners/GeneralStateTestsRunner.ts):
// the signed bytes decoded under the fork's Common (with Sponge's native crypto and the case's chain id and blob
// schedule), the block built from the env, no skipped check. runTx's own end of transaction removes touched empty
// accounts (the coinbase paid nothing included); a transaction it refuses (it throws, its journal reverted) leaves the
// pre-state. The state root is EthereumJS's own.

const GAS_PER_BLOB = 131072

/** One Common per fork, chain id and blob schedule, copied per case (building one rebuilds its parameter caches). */
const commons = new Map<string, Common>()

function commonFor(input: StateTestInput): Common {
  const hardfork = ETHEREUMJS_HARDFORK[input.fork]
  const blob = input.env.blob
  const key = `${hardfork}/${input.env.chainId}/${blob?.target}/${blob?.max}/${blob?.baseFeeUpdateFraction}`
  let common = commons.get(key)
  if (common === undefined) {
    // The case's blob schedule as hardfork-scoped parameters, which EthereumJS applies over its EIPs' defaults.
    const params =
      blob === undefined
        ? {}
        : {
            [hardfork]: {
              targetBlobGasPerBlock: blob.target * GAS_PER_BLOB,
              maxBlobGasPerBlock: blob.max * GAS_PER_BLOB,
              blobGasPriceUpdateFraction: blob.baseFeeUpdateFraction,
            },
          }
    common = createCustomCommon({ chainId: Number(input.env.chainId) }, Mainnet, { hardfork, customCrypto: customCrypto(), params: params as never })
    commons.set(key, common)
  }
  return common.copy()
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/ \(vm hf=.*$/, '')

async function run(input: StateTestInput): Promise<StateTestOutcome> {
  const common = commonFor(input)
  const state = new MerkleStateManager({ common })
  await state.checkpoint()
  for (const [address, a] of input.pre) {
    const at = new Address(hexToBytes(address))
    await state.putAccount(at, new Account(a.nonce, a.balance))
    if (a.code.length > 0) await state.putCode(at, a.code)
    for (const [slot, value] of a.storage) await state.putStorage(at, setLengthLeft(bigIntToBytes(slot), 32), bigIntToBytes(value))
  }
  await state.commit()
  await state.flush()

  let tx: ReturnType<typeof createTxFromRLP>
  try {
    tx = createTxFromRLP(input.tx.raw, { common })
  } catch (e) {
    return { kind: 'rejected', reason: `not decoded: ${message(e)}` }
  }
  if (!tx.isValid()) return { kind: 'rejected', reason: `invalid: ${tx.getValidationErrors().join(', ')}` }

  const env = input.env
  const block = createBlock(
    {
      header: {
        coinbase: hexToBytes(env.coinbase),
        number: env.number,
        timestamp: env.timestamp,
        gasLimit: env.gasLimit,
        difficulty: env.difficulty,
        mixHash: env.prevRandao,
        ...(env.baseFee === undefined ? {} : { baseFeePerGas: env.baseFee }),
        ...(env.blob === undefined ? {} : { excessBlobGas: env.blob.excessBlobGas }),
      },
    },
    { common, skipConsensusFormatValidation: true },
  )
  const vm = await createVM({ common, stateManager: state })
  try {
    const result = await runTx(vm, { tx, block })
    return {
      kind: 'root',
      stateRoot: await state.getStateRoot(),
      logs: result.receipt.logs.map(([address, topics, data]) => ({ address: bytesToHex(address), topics, data })),
    }
  } catch (e) {
    return { kind: 'rejected', reason: message(e) }
  }
}

export function createExecutor(): StateTestExecutor {
  return { run }
}
