import { rmSync } from 'node:fs'
import { createFeeMarket1559Tx, createLegacyTx } from '@ethereumjs/tx'
import { devGenesis } from '../../chain/dev.js'
import type { GethGenesisFile } from '../../chain/genesis.js'
import { ChainSpec } from '../../chain/spec.js'
import { keccak256 } from '../../crypto/keccak.js'
import { ecsign, recoverPublicKey } from '../../crypto/secp256k1.js'
import { createSenderSlots } from '../../exec/senderRecovery.js'
import { BlockExecutor } from '../../exec/executor.js'
import { genesisBlock } from '../../state/genesis.js'
import { ChainStore } from '../../store/chainStore.js'
import { bytesToHex, hexToBytes } from '../../util/hex.js'
import { buildPayload } from './payloadBuilder.js'
import type { PayloadData } from './payloadBlock.js'
import { importPayload } from './payloadImport.js'

// V8 compiles a function for speed only after it has run a while, and a fresh engine worker's first blocks ran the
// whole newPayload path cold: a node's first three 36 M-gas blocks of contract calls took ~1.5 s of CPU more than the
// same blocks once warm (in-process replays, 2026-11-27). So an engine worker first builds and imports a few small
// blocks of its own, on a throwaway chain in a directory of the datadir, deleted after: transfers to new accounts,
// and calls that read and write storage, STATICCALL another contract and log — the builder, decoding, sender
// recovery, the EVM, receipts, the commit, the stored replies and the store, as a consensus client's payloads run them.

/**
 * Per call: storage[caller] += seed, storage[seed] = 1 (a new slot), four STATICCALLs of TARGET adding up its
 * answers, LOG3(Transfer, caller, caller) of the sum, RETURN of it; seed is the first calldata word. (src/testing/asm.ts
 * wrote it from: 0x00 CALLDATALOAD CALLER SLOAD DUP2 ADD CALLER SSTORE 0x01 DUP2 SSTORE 0x00 loop: DUP1 0x04 GT
 * ISZERO end JUMPI DUP1 0x00 MSTORE 0x20 0x20 0x20 0x00 TARGET GAS STATICCALL ISZERO fail JUMPI 0x20 MLOAD SWAP1
 * SWAP2 ADD SWAP1 0x01 ADD loop JUMP end: POP 0x00 MSTORE CALLER CALLER TOPIC 0x20 0x00 LOG3 0x20 0x00 RETURN
 * fail: 0x00 DUP1 REVERT.)
 */
const CALLER_CODE =
  '0x6000353354810133556001815560005b806004111561004f578060005260206020602060007300000000000000000000000000000000005ab0e25afa15610081576020519091019060010161000f565b5060005233337fddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef60206000a360206000f35b600080fd'
/** Returns storage[slot] + 1 for the slot in the first calldata word: 0x00 CALLDATALOAD SLOAD 0x01 ADD 0x00 MSTORE 0x20 0x00 RETURN. */
const TARGET_CODE = '0x6000355460010160005260206000f3'
const CALLER = '0x00000000000000000000000000000000005ab0e1'
const TARGET = '0x00000000000000000000000000000000005ab0e2'
const SENDERS = 8
const TXS_PER_BLOCK = 64
const ZERO32 = `0x${'00'.repeat(32)}`
const word = (v: bigint) => `0x${v.toString(16).padStart(64, '0')}`

/** The throwaway chain: the dev chain's forks and system contracts, `senders` funded, the two contracts. */
function warmUpGenesis(senders: Uint8Array[]): GethGenesisFile {
  const g = devGenesis(senders.map((s) => bytesToHex(s)))
  const storage: Record<string, string> = {}
  for (let slot = 0n; slot < 4n; slot++) storage[word(slot)] = word(1000n + slot)
  g.alloc = {
    ...g.alloc,
    [CALLER]: { balance: '0x0', code: CALLER_CODE },
    [TARGET]: { balance: '0x0', code: TARGET_CODE, storage },
  }
  return g
}

/** A key's address, by libsecp256k1: a signature recovered (the pure-JS key derivation costs ~150 ms cold). */
function addressOf(key: Uint8Array): Uint8Array {
  const digest = keccak256(key)
  const sig = ecsign(digest, key)
  return keccak256(recoverPublicKey(sig.subarray(1), sig[0]!, digest)!).subarray(12)
}

/**
 * Builds and imports blocks on a throwaway chain in `dir` (made, then deleted) for about `ms` milliseconds, at least
 * `minBlocks` of them, each of `txsPerBlock` transactions: returns how many. Nothing of the node's own store is read or
 * written.
 */
export async function warmUpBlocks(dir: string, ms: number, minBlocks = 2, txsPerBlock = TXS_PER_BLOCK): Promise<number> {
  rmSync(dir, { recursive: true, force: true })
  const keys = Array.from({ length: SENDERS }, (_, i) => keccak256(new TextEncoder().encode(`sponge block warm-up ${i}`)))
  const genesis = warmUpGenesis(keys.map(addressOf))
  const spec = new ChainSpec(genesis)
  // No flushes: the chain is deleted once done, and a crash only leaves a directory the next start removes.
  const store = new ChainStore(dir, false, false)
  let blocks = 0
  try {
    const genesisHeader = (await genesisBlock(spec, store)).header
    let parent: { hash: string; number: bigint; timestamp: bigint; gasLimit: bigint } = {
      hash: bytesToHex(genesisHeader.hash()),
      number: 0n,
      timestamp: genesisHeader.timestamp,
      gasLimit: genesisHeader.gasLimit,
    }
    const executor = await BlockExecutor.create(spec, store)
    const nonces = keys.map(() => 0n)
    const until = performance.now() + ms
    let seed = 1n
    while (blocks < minBlocks || performance.now() < until) {
      const number = parent.number + 1n
      const timestamp = parent.timestamp + 12n
      const common = spec.commonAt(number, timestamp)
      const raws: Uint8Array[] = []
      for (let i = 0; i < txsPerBlock; i++) {
        const s = i % SENDERS
        const nonce = nonces[s]!++
        // A third plain transfers to new accounts, the rest calls; a quarter legacy, the rest EIP-1559.
        const call = i % 3 !== 0
        const fields = {
          nonce,
          gasLimit: call ? 200_000n : 21_000n,
          to: hexToBytes(call ? CALLER : bytesToHex(keccak256(hexToBytes(word(seed))).subarray(12))),
          value: call ? 0n : 1n,
          data: call ? hexToBytes(word(seed)) : new Uint8Array(),
        }
        seed++
        const tx =
          i % 4 === 3
            ? createLegacyTx({ ...fields, gasPrice: 50_000_000_000n }, { common })
            : createFeeMarket1559Tx(
                { ...fields, chainId: spec.chainId, maxFeePerGas: 50_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n },
                { common },
              )
        raws.push(tx.sign(keys[s]!).serialize())
      }
      const built = await buildPayload(spec, store, executor, {
        parentHash: parent.hash,
        timestamp: `0x${timestamp.toString(16)}`,
        prevRandao: ZERO32,
        feeRecipient: CALLER,
        withdrawals: [{ index: `0x${number.toString(16)}`, validatorIndex: '0x1', address: TARGET, amount: '0x1' }],
        parentBeaconBlockRoot: ZERO32,
        transactions: raws,
        mode: 'exact',
        extraData: '0x',
        gasLimitTarget: `0x${parent.gasLimit.toString(16)}`,
        persist: false,
      })
      const payload = built.executionPayload as unknown as PayloadData
      const status = await importPayload(spec, store, executor, {
        version: 4,
        payload,
        versionedHashes: [],
        parentBeaconBlockRoot: ZERO32,
        executionRequests: built.executionRequests,
        senders: createSenderSlots(payload.transactions.length),
      })
      if (status.status !== 'VALID') throw new Error(`the warm-up block was ${status.status}: ${status.validationError}`)
      store.refreshSnapshot()
      parent = { hash: built.blockHash, number, timestamp, gasLimit: BigInt(payload.gasLimit) }
      blocks++
      // A turn of the event loop between blocks: a thread that serves meanwhile (dev mode's main thread) answers.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
  return blocks
}
