import { MerklePatriciaTrie } from '@ethereumjs/mpt'
import { MerkleStateManager } from '@ethereumjs/statemanager'
import { Address, MapDB, ValueEncoding } from '@ethereumjs/util'
import { describe, expect, it } from 'vitest'
import { devGenesis } from '../chain/dev.js'
import { type GethGenesisFile, genesisNumber, readGenesisFile } from '../chain/genesis.js'
import { rpcCompatPath } from '../testing/paths.js'
import { uint256 as word } from '../testing/words.js'
import { bytesToHex, hexToBytes } from '../util/hex.js'
import { ethereumjsAlloc } from './genesis.js'
import { writeGenesisState } from './genesisState.js'

/** Code, storage (zero, short and padded values), nonces, an empty account, an address spelled without 0x. */
const synthetic: GethGenesisFile['alloc'] = {
  '0x00000000000000000000000000000000000000a1': { balance: '0x0' },
  '0x00000000000000000000000000000000000000a2': { balance: '1000000000000000000', nonce: '0x5' },
  '00000000000000000000000000000000000000A3': {
    balance: '0x1',
    code: '0x6001600155',
    storage: { [word(1)]: word(7), [word(2)]: '0x00', [word(3)]: '0x0100' },
  },
  '0x00000000000000000000000000000000000000a4': {
    code: '0x',
    storage: Object.fromEntries(Array.from({ length: 300 }, (_, i) => [word(i), word(i + 1)])),
  },
}

async function ethereumjsRoot(alloc: GethGenesisFile['alloc']): Promise<string> {
  const sm = new MerkleStateManager()
  await sm.generateCanonicalGenesis(ethereumjsAlloc({ alloc } as GethGenesisFile) as never)
  return bytesToHex(await sm.getStateRoot())
}

describe('genesis state written in one pass', () => {
  const cases: [string, GethGenesisFile['alloc']][] = [
    ['the dev chain', devGenesis().alloc],
    ['the conformance chain', readGenesisFile(rpcCompatPath('genesis.json')).alloc],
    ['code, storage, nonces, spellings', synthetic],
    ['nothing', {}],
  ]

  it.each(cases)('has the root EthereumJS computes for %s', async (_, alloc) => {
    expect(bytesToHex(writeGenesisState(alloc, () => undefined))).toBe(await ethereumjsRoot(alloc))
  })

  it.each(cases.slice(1, 3))('holds every node and code EthereumJS reads back, for %s', async (_, alloc) => {
    const db = new MapDB<string, Uint8Array>()
    const root = writeGenesisState(alloc, (key, value) => void db.put(key, value))
    const trie = new MerklePatriciaTrie({ db, useKeyHashing: true, valueEncoding: ValueEncoding.Bytes })
    const sm = new MerkleStateManager({ trie })
    await sm.setStateRoot(root)
    for (const [address, account] of Object.entries(alloc)) {
      const a = new Address(hexToBytes(address.startsWith('0x') ? address : `0x${address}`))
      expect((await sm.getAccount(a))?.balance ?? 0n).toBe(genesisNumber(account.balance))
      expect(bytesToHex(await sm.getCode(a))).toBe((account.code ?? '0x').toLowerCase())
      for (const [slot, value] of Object.entries(account.storage ?? {})) {
        const got = await sm.getStorage(a, hexToBytes(slot))
        expect(got.length === 0 ? 0n : BigInt(bytesToHex(got))).toBe(genesisNumber(value))
      }
    }
  })
})
