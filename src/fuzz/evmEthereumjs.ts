import { createBlock } from '@ethereumjs/block'
import { Common, Mainnet } from '@ethereumjs/common'
import { Caches, MerkleStateManager } from '@ethereumjs/statemanager'
import {
  type AccessListBytes,
  createAccessList2930Tx,
  createEOACode7702Tx,
  createFeeMarket1559Tx,
  createLegacyTx,
  type TypedTransaction,
} from '@ethereumjs/tx'
import { Account, Address, bigIntToBytes, bigIntToUnpaddedBytes, type EOACode7702AuthorizationListBytes, setLengthLeft } from '@ethereumjs/util'
import { createVM, runTx } from '@ethereumjs/vm'
import { ETHEREUMJS_HARDFORK, Fork } from '../chain/evmFork.js'
import { customCrypto } from '../crypto/customCrypto.js'
import { addressToBytes, wordToBytes } from '../evm/words.js'
import { bytesToHex } from '../util/hex.js'
import { codeOf, type FuzzCase, type FuzzTx, KEYS } from './evmCases.js'
import type { TxOutcome } from './evmOutcome.js'
import { sign } from './evmSign.js'
import { accountSummary, signAuthorization } from './evmSponge.js'

// A fuzz case through EthereumJS 10.1.3, the reference: its VM's runTx on a fresh in-memory trie-backed state holding
// the pre-state, each transaction signed by the case's sender key under the fork's Common (mainnet, chain id 1, with
// Sponge's native crypto), the block built from the case's. A transaction runTx throws on is rejected; the state root
// is EthereumJS's own.

const commons = new Map<Fork, Common>()

function commonFor(fork: Fork): Common {
  let common = commons.get(fork)
  if (common === undefined) {
    common = new Common({ chain: Mainnet, hardfork: ETHEREUMJS_HARDFORK[fork], customCrypto: customCrypto() })
    commons.set(fork, common)
  }
  return common
}

/** The case's transaction, signed by the sender's key (EIP-155 from Spurious Dragon, as EthereumJS signs legacy ones). */
function signed(t: FuzzTx, common: Common): TypedTransaction {
  const base = {
    nonce: t.nonce,
    gasLimit: t.gasLimit,
    value: t.value,
    data: t.data,
    ...(t.to === undefined ? {} : { to: new Address(addressToBytes(t.to)) }),
  }
  const accessList: AccessListBytes = t.accessList.map((e) => [addressToBytes(e.address), e.storageKeys.map((k) => wordToBytes(k))])
  const opts = { common }
  let unsigned: TypedTransaction
  switch (t.type) {
    case 0:
      unsigned = createLegacyTx({ ...base, gasPrice: t.maxFee }, opts)
      break
    case 1:
      unsigned = createAccessList2930Tx({ ...base, gasPrice: t.maxFee, accessList, chainId: 1n }, opts)
      break
    case 2:
      unsigned = createFeeMarket1559Tx({ ...base, maxFeePerGas: t.maxFee, maxPriorityFeePerGas: t.tip, accessList, chainId: 1n }, opts)
      break
    case 4: {
      const authorizationList: EOACode7702AuthorizationListBytes = t.authorizations.map((a) => {
        const s = signAuthorization(a)
        return [
          bigIntToUnpaddedBytes(s.chainId),
          addressToBytes(s.address),
          bigIntToUnpaddedBytes(s.nonce),
          bigIntToUnpaddedBytes(s.yParity),
          bigIntToUnpaddedBytes(s.r),
          bigIntToUnpaddedBytes(s.s),
        ]
      })
      unsigned = createEOACode7702Tx(
        { ...base, maxFeePerGas: t.maxFee, maxPriorityFeePerGas: t.tip, accessList, authorizationList, chainId: 1n },
        opts,
      )
      break
    }
  }
  const sig = sign(unsigned.getHashedMessageToSign(), KEYS[0]!)
  return unsigned.addSignature(BigInt(sig.recovery), sig.r, sig.s, true)
}

async function describeAccounts(state: MerkleStateManager, addresses: readonly bigint[]): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const a of addresses) {
    const at = new Address(addressToBytes(a))
    const account = await state.getAccount(at)
    out.set(bytesToHex(at.bytes), accountSummary(account))
  }
  return out
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0]!.replace(/ \(block .*$|\(vm hf=.*$/, '')

/** The case through EthereumJS; `addresses`: the accounts to describe after each transaction. */
export async function runEthereumjs(c: FuzzCase, addresses: readonly bigint[]): Promise<TxOutcome[]> {
  const common = commonFor(c.fork)
  const state = new MerkleStateManager({ common, caches: new Caches() })
  await state.checkpoint()
  for (const a of c.accounts) {
    const at = new Address(addressToBytes(a.address))
    await state.putAccount(at, new Account(a.nonce, a.balance))
    const code = codeOf(c, a)
    if (code.length > 0) await state.putCode(at, code)
    for (const [slot, value] of a.storage) if (value !== 0n) await state.putStorage(at, setLengthLeft(bigIntToBytes(slot), 32), bigIntToBytes(value))
  }
  await state.commit()
  await state.flush()
  const b = c.block
  const block = createBlock(
    {
      header: {
        coinbase: addressToBytes(b.coinbase),
        number: b.number,
        timestamp: b.timestamp,
        gasLimit: b.gasLimit,
        difficulty: b.difficulty,
        mixHash: wordToBytes(b.prevRandao),
        ...(c.fork >= Fork.london ? { baseFeePerGas: b.baseFee } : {}),
        ...(c.fork >= Fork.cancun ? { excessBlobGas: 0n, blobGasUsed: 0n } : {}),
      },
    },
    { common, skipConsensusFormatValidation: true },
  )
  const vm = await createVM({ common, stateManager: state })
  const outcomes: TxOutcome[] = []
  for (const t of c.txs) {
    let tx: TypedTransaction
    try {
      tx = signed(t, common)
    } catch (e) {
      outcomes.push({ kind: 'rejected', reason: `not made: ${message(e)}` })
      continue
    }
    try {
      const result = await runTx(vm, { tx, block })
      const exec = result.execResult
      const error = exec.exceptionError?.error
      const output = bytesToHex(exec.returnValue)
      outcomes.push({
        kind: 'executed',
        status: error === undefined ? 'success' : error === 'revert' ? 'revert' : 'error',
        // Sponge reports gas used as a double (exact below 2^53, which a block's gas always is): past it, compared at
        // that precision; the state root checks the fees to the wei.
        gasUsed: BigInt(Number(result.totalGasSpent)),
        output: output === '0x' ? '' : output,
        error,
        marks: new Set(),
        logs: result.receipt.logs.map(
          ([address, topics, data]) => `${bytesToHex(address)} ${topics.map((t) => bytesToHex(t)).join(' ')} ${bytesToHex(data)}`,
        ),
        root: bytesToHex(await state.getStateRoot()),
        accounts: await describeAccounts(state, addresses),
      })
    } catch (e) {
      outcomes.push({ kind: 'rejected', reason: message(e) })
    }
  }
  return outcomes
}
