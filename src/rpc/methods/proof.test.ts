import { verifyMerkleProof } from '@ethereumjs/mpt'
import { RLP } from '@ethereumjs/rlp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { keccak256 } from '../../crypto/keccak.js'
import { type TestNode, devGenesisWith, startTestNode } from '../../testing/testNode.js'
import { hexToBytes } from '../../util/hex.js'

// eth_getProof (EIP-1186) as geth answers it: proofs that verify against the block's state root, each storage key
// echoed in geth's form (32 bytes as given, any other length as its quantity), an absent account with zero hashes.

const HOLDER = '0x00000000000000000000000000000000000c0c0c'
const SLOT_1 = `0x${'00'.repeat(31)}01`
let n: TestNode
beforeAll(async () => {
  n = await startTestNode({ genesis: devGenesisWith({ [HOLDER]: '0x00' }, { storage: { [SLOT_1]: `0x${'00'.repeat(31)}2a` } }) })
})
afterAll(async () => {
  await n.close()
})

interface Proof {
  address: string
  accountProof: string[]
  balance: string
  codeHash: string
  nonce: string
  storageHash: string
  storageProof: { key: string; value: string; proof: string[] }[]
}

describe('eth_getProof', () => {
  it("proves an account and its slots against the state root, keys in geth's forms", async () => {
    const keys = ['0x1', SLOT_1, `0x${'00'.repeat(31)}02`, '0x0002']
    const p = (await n.http<Proof>('eth_getProof', [HOLDER, keys, 'latest'])).result!
    const root = hexToBytes((await n.http<{ stateRoot: string }>('eth_getBlockByNumber', ['latest', false])).result!.stateRoot)
    const account = await verifyMerkleProof(keccak256(hexToBytes(HOLDER)), p.accountProof.map(hexToBytes), { root } as never)
    expect(account).not.toBeNull()
    const [, , storageRoot] = RLP.decode(account!) as Uint8Array[]
    expect(p.storageHash).toBe(`0x${Buffer.from(storageRoot!).toString('hex')}`)
    expect(p.storageProof.map((s) => [s.key, s.value])).toEqual([
      ['0x1', '0x2a'],
      [SLOT_1, '0x2a'],
      [`0x${'00'.repeat(31)}02`, '0x0'],
      ['0x2', '0x0'],
    ])
    for (const [i, s] of p.storageProof.entries()) {
      const slot = hexToBytes(`0x${BigInt(keys[i]!).toString(16).padStart(64, '0')}`)
      const value = await verifyMerkleProof(keccak256(slot), s.proof.map(hexToBytes), { root: storageRoot } as never)
      expect(value === null ? '0x0' : `0x${BigInt(`0x${Buffer.from(RLP.decode(value) as Uint8Array).toString('hex') || '0'}`).toString(16)}`).toBe(
        s.value,
      )
    }
  })

  it('answers an absent account with zero hashes and an empty storage proof, and refuses too many keys', async () => {
    const p = (await n.http<Proof>('eth_getProof', [`0x${'77'.repeat(20)}`, ['0x1'], 'latest'])).result!
    expect(p).toMatchObject({ balance: '0x0', nonce: '0x0', codeHash: `0x${'00'.repeat(32)}`, storageHash: `0x${'00'.repeat(32)}` })
    expect(p.storageProof).toEqual([{ key: '0x1', value: '0x0', proof: [] }])
    expect(p.accountProof.length).toBeGreaterThan(0)
    const many = Array.from({ length: 1025 }, (_, i) => `0x${i.toString(16)}`)
    expect((await n.http('eth_getProof', [HOLDER, many, 'latest'])).error?.code).toBe(-32602)
  })
})
