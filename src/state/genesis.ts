import { type Block, createBlock } from '@ethereumjs/block'
import { type GethGenesisFile, genesisNumber } from '../chain/genesis.js'
import type { ChainSpec } from '../chain/spec.js'
import { blockJsonPrefix } from '../codecs/block.js'
import { partsOfBlock } from '../codecs/blockParts.js'
import type { ChainStore, TrieNodeWrite } from '../store/chainStore.js'
import { ChangeWriter } from '../store/stateChanges.js'
import { writeGenesisState } from './genesisState.js'
import { blockSize, bodyRlp } from '../store/blockCodec.js'
import { bytesToHex, equalBytes, unprefixedHexToBytes } from '../util/hex.js'

type AllocEntry = [balance: string, code: string | undefined, storage: [string, string][] | undefined, nonce: string]

/** A geth genesis alloc in the form EthereumJS's generateCanonicalGenesis takes. */
export function ethereumjsAlloc(g: GethGenesisFile): Record<string, AllocEntry> {
  const alloc: Record<string, AllocEntry> = {}
  for (const [address, acct] of Object.entries(g.alloc)) {
    const key = address.startsWith('0x') ? address : `0x${address}`
    const storage = acct.storage === undefined ? undefined : (Object.entries(acct.storage) as [string, string][])
    alloc[key] = [
      `0x${genesisNumber(acct.balance).toString(16)}`,
      acct.code,
      storage?.filter(([, v]) => genesisNumber(v) !== 0n),
      `0x${genesisNumber(acct.nonce).toString(16)}`,
    ]
  }
  return alloc
}

/** The genesis block of a spec, with its state written to the store if the store is new. */
export async function genesisBlock(spec: ChainSpec, store: ChainStore): Promise<Block> {
  const g = spec.genesis
  const trieNodes: TrieNodeWrite[] = []
  const common = spec.commonAt(0n, spec.genesisTime)
  const existing = store.getLabel('genesis')
  // The flat table's list of the whole state only for a new store: a restart writes nothing.
  const flat = existing === undefined ? new ChangeWriter() : undefined
  const stateRoot = writeGenesisState(g.alloc, (key, value) => trieNodes.push([unprefixedHexToBytes(key), value]), flat)
  const header: Record<string, unknown> = {
    number: 0n,
    timestamp: spec.genesisTime,
    gasLimit: genesisNumber(g.gasLimit),
    difficulty: genesisNumber(g.difficulty),
    extraData: g.extraData ?? '0x',
    nonce: g.nonce === undefined ? undefined : padNonce(g.nonce),
    mixHash: g.mixHash,
    coinbase: g.coinbase,
    stateRoot,
  }
  const raw = g as unknown as Record<string, string | null | undefined>
  for (const k of ['baseFeePerGas', 'excessBlobGas', 'blobGasUsed', 'parentBeaconBlockRoot', 'requestsHash']) {
    const v = raw[k]
    if (v !== undefined && v !== null) header[k] = v
  }
  const block = createBlock(
    { header: header as never, withdrawals: common.isActivatedEIP(4895) ? [] : undefined },
    {
      common,
    },
  )
  if (existing !== undefined) {
    if (!equalBytes(existing, block.hash())) {
      throw new Error(`datadir ${store.datadir} holds another chain: genesis ${bytesToHex(existing)}, this spec's is ${bytesToHex(block.hash())}`)
    }
    return block
  }
  const parts = partsOfBlock(block)
  const body = bodyRlp(parts, [])
  store.putGenesisSync(
    {
      hash: parts.hash,
      number: 0n,
      headerRlp: parts.headerRlp,
      bodyRlp: body,
      txHashes: [],
      blockJson: blockJsonPrefix(parts, blockSize(parts.headerRlp, body)),
      txJson: [],
      receiptJson: [],
      logs: undefined,
      logKeys: [],
      trieNodes,
      parentHash: block.header.parentHash,
      stateRoot,
      stateChanges: flat?.finish(),
    },
    spec.chainId,
  )
  return block
}

function padNonce(n: string): string {
  const hex = BigInt(n).toString(16).padStart(16, '0')
  return `0x${hex}`
}
