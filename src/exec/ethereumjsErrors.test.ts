import { createBlock } from '@ethereumjs/block'
import { Common, Hardfork, Mainnet } from '@ethereumjs/common'
import { type TypedTransaction, createTx } from '@ethereumjs/tx'
import { Address, EthereumJSErrorWithoutCode, SECP256K1_ORDER, createAddressFromPrivateKey } from '@ethereumjs/util'
import { type VM, buildBlock, createVM, runTx } from '@ethereumjs/vm'
import { describe, expect, it } from 'vitest'
import { customCrypto } from '../crypto/customCrypto.js'
import { TxRejectedError, type TxRejectionKind } from './errors.js'
import { txRejectionOf, withoutDebugSuffix } from './ethereumjsErrors.js'

// Every message the adapter recognises, produced by EthereumJS itself (the version in package-lock), each to the
// kind and message the domain gives it.

const KEY = new Uint8Array(32).fill(1)
const SENDER = createAddressFromPrivateKey(KEY)
const TO = new Address(new Uint8Array(20).fill(0xbb))

const common = (hardfork: Hardfork) => new Common({ chain: Mainnet, hardfork, customCrypto: customCrypto() })

async function vmAt(hardfork: Hardfork, sender: { balance?: bigint; nonce?: bigint; code?: Uint8Array } = {}): Promise<VM> {
  const vm = await createVM({ common: common(hardfork) })
  await vm.stateManager.modifyAccountFields(SENDER, { balance: sender.balance ?? 10n ** 18n, nonce: sender.nonce ?? 0n })
  if (sender.code !== undefined) await vm.stateManager.putCode(SENDER, sender.code)
  return vm
}

function signed(hardfork: Hardfork, fields: Record<string, unknown>): TypedTransaction {
  return createTx({ to: TO, gasLimit: 21_000n, ...fields } as never, { common: common(hardfork) }).sign(KEY)
}

function blockAt(vm: VM, header: Record<string, unknown> = {}) {
  return createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n, ...header } }, { common: vm.common })
}

/** What EthereumJS threw, so the tests see its own message. */
async function thrown(f: () => unknown): Promise<unknown> {
  try {
    await f()
  } catch (e) {
    expect(e).toBeInstanceOf(Error)
    return e
  }
  throw new Error('EthereumJS did not refuse')
}

async function expectKind(f: () => unknown, kind: TxRejectionKind, message: string | RegExp): Promise<void> {
  const e = await thrown(f)
  const rejection = txRejectionOf(e)
  expect(rejection).toBeInstanceOf(TxRejectedError)
  expect(rejection!.kind).toBe(kind)
  if (typeof message === 'string') expect(rejection!.message).toBe(message)
  else expect(rejection!.message).toMatch(message)
}

describe("EthereumJS's refusals as the domain's kinds", () => {
  it("insufficient funds (runTx), in geth's words (EthereumJS's upfront cost: gas × the effective price)", async () => {
    const vm = await vmAt(Hardfork.Prague, { balance: 100n })
    const tx = signed(Hardfork.Prague, { type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(
      () => runTx(vm, { tx, block: blockAt(vm) }),
      'insufficientFunds',
      `insufficient funds for gas * price + value: address ${SENDER.toString()} have 100 want 147000`,
    )
  })

  it("insufficient funds for the fee cap (runTx's max cost check, after the upfront one passed)", async () => {
    // Base fee 7, fee cap 10: the upfront cost is 21000 × 7, the max cost 21000 × 10.
    const vm = await vmAt(Hardfork.Prague, { balance: 200_000n })
    const tx = signed(Hardfork.Prague, { type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(
      () => runTx(vm, { tx, block: blockAt(vm) }),
      'insufficientFunds',
      `insufficient funds for gas * price + value: address ${SENDER.toString()} have 200000 want 210000`,
    )
  })

  it('a sender with code (runTx, EIP-3607)', async () => {
    const vm = await vmAt(Hardfork.Prague, { code: Uint8Array.of(0x00) })
    const tx = signed(Hardfork.Prague, { type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => runTx(vm, { tx, block: blockAt(vm) }), 'senderNotEoa', 'sender not an eoa')
  })

  it('an oversized init code (the constructor, EIP-3860)', async () => {
    const data = new Uint8Array(49_153)
    await expectKind(
      () => createTx({ type: 2, gasLimit: 10_000_000n, data }, { common: common(Hardfork.Prague) }),
      'maxInitCodeSizeExceeded',
      'max initcode size exceeded: code size 49153 limit 49152',
    )
  })

  it('less gas than the intrinsic gas (runTx)', async () => {
    const vm = await vmAt(Hardfork.Prague)
    const tx = signed(Hardfork.Prague, { type: 2, gasLimit: 100n, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => runTx(vm, { tx, block: blockAt(vm) }), 'intrinsicGasTooLow', 'intrinsic gas too low: have 100, want 21000')
  })

  it('a fee cap under the base fee (runTx), for both fee fields', async () => {
    const vm = await vmAt(Hardfork.Prague)
    const tx = signed(Hardfork.Prague, { type: 2, maxFeePerGas: 1n, maxPriorityFeePerGas: 0n })
    const message = 'max fee per gas less than block base fee: maxFeePerGas: 1, baseFee: 7'
    await expectKind(() => runTx(vm, { tx, block: blockAt(vm) }), 'feeCapTooLow', message)
    const legacy = signed(Hardfork.Prague, { type: 0, gasPrice: 1n })
    await expectKind(() => runTx(vm, { tx: legacy, block: blockAt(vm) }), 'feeCapTooLow', message)
  })

  it('a blob fee cap under the blob base fee (runTx)', async () => {
    const vm = await vmAt(Hardfork.Prague)
    const tx = signed(Hardfork.Prague, {
      type: 3,
      maxFeePerGas: 10n,
      maxPriorityFeePerGas: 0n,
      maxFeePerBlobGas: 0n,
      blobVersionedHashes: [`0x01${'00'.repeat(31)}`],
    })
    await expectKind(
      () => runTx(vm, { tx, block: blockAt(vm, { excessBlobGas: 0n, blobGasUsed: 0n }) }),
      'blobFeeCapTooLow',
      'max fee per blob gas less than block blob gas fee: blobGasFeeCap: 0, blobBaseFee: 1',
    )
  })

  it('more gas than EIP-7825 allows (the constructor, Osaka)', async () => {
    await expectKind(
      () => createTx({ type: 2, to: TO, gasLimit: 16_777_217n }, { common: common(Hardfork.Osaka) }),
      'gasLimitTooHigh',
      'transaction gas limit too high (cap: 16777216, tx: 16777217)',
    )
  })

  it("more gas than the block's limit (runTx)", async () => {
    const vm = await vmAt(Hardfork.Prague)
    const tx = signed(Hardfork.Prague, { type: 2, gasLimit: 30_000n, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => runTx(vm, { tx, block: blockAt(vm, { gasLimit: 21_000n }) }), 'exceedsBlockGasLimit', 'exceeds block gas limit')
  })

  it('more gas than is left in the block (BlockBuilder.addTransaction)', async () => {
    const vm = await vmAt(Hardfork.Prague)
    const parent = blockAt(vm, { gasLimit: 21_000n })
    const builder = await buildBlock(vm, {
      parentBlock: parent,
      headerData: { gasLimit: 21_000n, number: 1n, baseFeePerGas: 7n },
      blockOpts: { putBlockIntoBlockchain: false },
    })
    const tx = signed(Hardfork.Prague, { type: 2, gasLimit: 30_000n, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => builder.addTransaction(tx), 'blockGasLimitReached', 'gas limit reached')
    await builder.revert()
  })

  it('a fee market transaction on a fork without EIP-1559 (runTx)', async () => {
    const vm = await vmAt(Hardfork.Berlin)
    const tx = signed(Hardfork.London, { type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    const block = createBlock({ header: { gasLimit: 30_000_000n } }, { common: vm.common })
    await expectKind(() => runTx(vm, { tx, block, skipHardForkValidation: true }), 'txTypeNotSupported', 'transaction type not supported')
  })

  it('a nonce too low and too high (runTx), told apart', async () => {
    const vm = await vmAt(Hardfork.Prague, { nonce: 2n })
    const low = signed(Hardfork.Prague, { type: 2, nonce: 1n, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => runTx(vm, { tx: low, block: blockAt(vm) }), 'nonceTooLow', 'nonce too low: tx: 1 state: 2')
    const high = signed(Hardfork.Prague, { type: 2, nonce: 5n, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    await expectKind(() => runTx(vm, { tx: high, block: blockAt(vm) }), 'nonceTooHigh', 'nonce too high: tx: 5 state: 2')
  })

  it("a tip above the fee cap (the constructor), without the transaction's dump", async () => {
    const e = await thrown(() => createTx({ type: 2, to: TO, maxFeePerGas: 1n, maxPriorityFeePerGas: 2n }, { common: common(Hardfork.Prague) }))
    expect((e as Error).message).toMatch(/ \(tx type=2 hash=.* maxFeePerGas=1 maxPriorityFeePerGas=2\)$/)
    await expectKind(() => Promise.reject(e), 'tipAboveFeeCap', 'max priority fee per gas higher than max fee per gas')
  })

  it("signature values no sender comes from (the constructor, getSenderAddress): geth's invalid sender", async () => {
    const invalidSig = 'invalid sender: invalid transaction v, r, s values'
    const highS = { type: 2, to: TO, v: 0n, r: 1n, s: SECP256K1_ORDER - 1n }
    await expectKind(() => createTx(highS as never, { common: common(Hardfork.Prague) }), 'invalidSender', invalidSig)
    const yParity = { type: 2, to: TO, v: 2n, r: 1n, s: 1n }
    await expectKind(() => createTx(yParity as never, { common: common(Hardfork.Prague) }), 'invalidSender', invalidSig)
    const legacyV = { type: 0, to: TO, v: 30n, r: 1n, s: 1n }
    await expectKind(() => createTx(legacyV as never, { common: common(Hardfork.Prague) }), 'invalidSender', invalidSig)
    const noKey = createTx({ type: 2, to: TO, v: 0n, r: 0n, s: 1n } as never, { common: common(Hardfork.Prague) })
    await expectKind(() => noKey.getSenderAddress(), 'invalidSender', invalidSig)
  })

  it("another chain's transaction (the constructors): geth's invalid chain id, no JavaScript source", async () => {
    // A legacy transaction whose v signs for chain 5, on mainnet (chain 1).
    const legacy = { type: 0, to: TO, gasPrice: 1n, v: 45n, r: 1n, s: 1n }
    await expectKind(
      () => createTx(legacy as never, { common: common(Hardfork.Prague) }),
      'invalidSender',
      'invalid sender: invalid chain id for signer: have 5 want 1',
    )
    const typed = { type: 2, to: TO, chainId: 5n }
    const e = await thrown(() => createTx(typed as never, { common: common(Hardfork.Prague) }))
    expect((e as Error).message).toMatch(/^Common chain ID [\s\S]*return[\s\S]* not matching the derived chain ID 5$/)
    await expectKind(() => Promise.reject(e), 'invalidSender', 'invalid sender: invalid chain id for signer')
  })

  it('a set code transaction without authorizations (the constructor)', async () => {
    await expectKind(
      () => createTx({ type: 4, to: TO, authorizationList: [] } as never, { common: common(Hardfork.Prague) }),
      'invalidTransaction',
      'set code tx must have at least one authorization tuple',
    )
  })

  it("a blob sidecar of the other fork's version (the constructor)", async () => {
    const blob = { type: 3, to: TO, blobVersionedHashes: [`0x01${'00'.repeat(31)}`] }
    await expectKind(
      () => createTx({ ...blob, networkWrapperVersion: 1 } as never, { common: common(Hardfork.Prague) }),
      'invalidTransaction',
      'unexpected sidecar version, want: 0, got: 1',
    )
    await expectKind(
      () => createTx({ ...blob, networkWrapperVersion: 0 } as never, { common: common(Hardfork.Osaka) }),
      'invalidTransaction',
      'unexpected sidecar version, want: 1, got: 0',
    )
  })

  it("another refusal of EthereumJS's is 'rejected', with its message less the debug suffix", async () => {
    const vm = await vmAt(Hardfork.Prague)
    const tx = signed(Hardfork.Prague, { type: 2, maxFeePerGas: 10n, maxPriorityFeePerGas: 0n })
    const block = createBlock({ header: { gasLimit: 30_000_000n, baseFeePerGas: 7n } }, { common: common(Hardfork.Cancun) })
    const e = await thrown(() => runTx(vm, { tx, block }))
    expect((e as Error).message).toMatch(/^block has a different hardfork than the vm \(vm hf=prague -> /)
    const rejection = txRejectionOf(e)
    expect(rejection).toMatchObject({ kind: 'rejected', message: 'block has a different hardfork than the vm' })
  })

  it('what is not an EthereumJS refusal is not a rejection; a rejection stays itself', () => {
    expect(txRejectionOf(new TypeError('x is undefined'))).toBeUndefined()
    expect(txRejectionOf('a string')).toBeUndefined()
    const own = new TxRejectedError('nonce too low: …', 'nonceTooLow')
    expect(txRejectionOf(own)).toBe(own)
    expect(txRejectionOf(EthereumJSErrorWithoutCode('something new'))).toMatchObject({ kind: 'rejected', message: 'something new' })
  })

  it("strips the debug suffix runTx adds and the constructors' transaction dump", () => {
    expect(withoutDebugSuffix('reason (vm hf=prague -> block number=1 hash=0x… -> tx type=2 hash=0x…)')).toBe('reason')
    expect(withoutDebugSuffix('reason (tx type=2 hash=0xab nonce=0 value=0 signed=true hf=prague maxFeePerGas=1 maxPriorityFeePerGas=2)')).toBe(
      'reason',
    )
    expect(withoutDebugSuffix('reason (a remark)')).toBe('reason (a remark)')
    expect(withoutDebugSuffix('reason')).toBe('reason')
  })
})
