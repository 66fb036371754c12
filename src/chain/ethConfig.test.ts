import { describe, expect, it } from 'vitest'
import { hexToBytes } from '../util/hex.js'
import { ethConfig, forkHash } from './ethConfig.js'
import { ChainSpec } from './spec.js'

// Mainnet's schedule and the FORK_HASH values published in EIP-2124 and EIP-6122 / geth's forkid tests.
const MAINNET_GENESIS = hexToBytes('0xd4e56740f876aef8c010b86a40d5f56745a118d0906a34e69aec8c0db1cb8fa3')
const mainnet = new ChainSpec({
  config: {
    chainId: 1,
    homesteadBlock: 1150000,
    daoForkBlock: 1920000,
    eip150Block: 2463000,
    eip155Block: 2675000,
    eip158Block: 2675000,
    byzantiumBlock: 4370000,
    constantinopleBlock: 7280000,
    petersburgBlock: 7280000,
    istanbulBlock: 9069000,
    muirGlacierBlock: 9200000,
    berlinBlock: 12244000,
    londonBlock: 12965000,
    arrowGlacierBlock: 13773000,
    grayGlacierBlock: 15050000,
    shanghaiTime: 1681338455,
    cancunTime: 1710338135,
    pragueTime: 1746612311,
    depositContractAddress: '0x00000000219ab540356cbb839cbe05303d7705fa',
    terminalTotalDifficulty: '58750000000000000000000',
    blobSchedule: {
      cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
      prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
    },
  },
  gasLimit: '0x1388',
  difficulty: '0x400000000',
  alloc: {},
})

describe('EIP-2124/6122 fork hash', () => {
  it('matches mainnet after Gray Glacier, Shanghai, Cancun and Prague', () => {
    expect(forkHash(mainnet, MAINNET_GENESIS, 1681338454n)).toBe('0xf0afd0e3')
    expect(forkHash(mainnet, MAINNET_GENESIS, 1681338455n)).toBe('0xdce96c2d')
    expect(forkHash(mainnet, MAINNET_GENESIS, 1710338135n)).toBe('0x9f3d2254')
    expect(forkHash(mainnet, MAINNET_GENESIS, 1746612311n)).toBe('0xc376cf8b')
  })
})

describe('eth_config', () => {
  it('reports the fork in force, and no next fork when none is scheduled', () => {
    const cfg = ethConfig(mainnet, MAINNET_GENESIS, 1746612311n + 100n)
    expect(cfg.current.activationTime).toBe(1746612311)
    expect(cfg.current.forkId).toBe('0xc376cf8b')
    expect(cfg.current.blobSchedule).toEqual({ baseFeeUpdateFraction: 5007716, max: 9, target: 6 })
    expect(cfg.current.precompiles.BLS12_G1ADD).toBe('0x000000000000000000000000000000000000000b')
    expect(cfg.current.precompiles.P256VERIFY).toBeUndefined()
    expect(cfg.current.systemContracts.DEPOSIT_CONTRACT_ADDRESS).toBe('0x00000000219ab540356cbb839cbe05303d7705fa')
    expect(cfg.next).toBeNull()
    expect(cfg.last).toBeNull()
  })
  it('reports the next and last forks before they activate', () => {
    const cfg = ethConfig(mainnet, MAINNET_GENESIS, 1700000000n)
    expect(cfg.current.activationTime).toBe(1681338455)
    expect(cfg.current.blobSchedule).toBeNull()
    expect(cfg.current.systemContracts).toEqual({})
    expect(cfg.next?.activationTime).toBe(1710338135)
    expect(cfg.next?.systemContracts).toEqual({ BEACON_ROOTS_ADDRESS: '0x000f3df6d732807ef1319fb7b8bb8522d0beac02' })
    expect(cfg.last?.activationTime).toBe(1746612311)
  })
})
