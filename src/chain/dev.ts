import { secp256k1 as secp } from '@noble/curves/secp256k1.js'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import { keccak256 } from '../crypto/keccak.js'
import { bytesToHex } from '../util/hex.js'
import type { GethGenesisFile } from './genesis.js'
import { MULTICALL3_ADDRESS, MULTICALL3_RUNTIME } from './multicall3.js'
import { SYSTEM_CONTRACTS } from './systemContracts.js'

/** The well-known development mnemonic (the one anvil and hardhat print): never use its keys on a real network. */
export const DEV_MNEMONIC = 'test test test test test test test test test test test junk'
export const DEV_CHAIN_ID = 1337
export const DEV_ACCOUNT_COUNT = 10
const DEV_BALANCE = 10n ** 24n // 1,000,000 ether each

export interface DevAccount {
  address: string
  privateKey: string
}

let accounts: DevAccount[] | undefined

/** Accounts m/44'/60'/0'/0/i of the dev mnemonic. */
export function devAccounts(): DevAccount[] {
  if (accounts !== undefined) return accounts
  const root = HDKey.fromMasterSeed(mnemonicToSeedSync(DEV_MNEMONIC))
  accounts = []
  for (let i = 0; i < DEV_ACCOUNT_COUNT; i++) {
    const key = root.derive(`m/44'/60'/0'/0/${i}`)
    const priv = key.privateKey!
    // HDKey gives a compressed public key; decompress through secp256k1's uncompressed form.
    const pub = uncompressed(key)
    const address = bytesToHex(keccak256(pub.subarray(1)).subarray(12))
    accounts.push({ address, privateKey: bytesToHex(priv) })
  }
  return accounts
}

function uncompressed(key: HDKey): Uint8Array {
  // @scure/bip32 exposes only the compressed key; @noble/curves (its own dependency) decompresses it.
  return secp.Point.fromBytes(key.publicKey!).toBytes(false)
}

/**
 * Every fork through Osaka active at genesis; system contracts deployed; the dev accounts funded, or the addresses
 * given (whose keys need no derivation from the mnemonic: tens of milliseconds).
 */
export function devGenesis(funded: readonly string[] = devAccounts().map((a) => a.address)): GethGenesisFile {
  const alloc: GethGenesisFile['alloc'] = {}
  for (const c of SYSTEM_CONTRACTS) alloc[c.address] = { balance: '0x0', code: c.code, nonce: '0x1' }
  for (const a of funded) alloc[a] = { balance: `0x${DEV_BALANCE.toString(16)}` }
  // Libraries batch reads through Multicall3 at its usual address (viem's multicall, ethers' multicall helpers).
  alloc[MULTICALL3_ADDRESS] = { balance: '0x0', code: MULTICALL3_RUNTIME, nonce: '0x1' }
  return {
    config: {
      chainId: DEV_CHAIN_ID,
      homesteadBlock: 0,
      eip150Block: 0,
      eip155Block: 0,
      eip158Block: 0,
      byzantiumBlock: 0,
      constantinopleBlock: 0,
      petersburgBlock: 0,
      istanbulBlock: 0,
      muirGlacierBlock: 0,
      berlinBlock: 0,
      londonBlock: 0,
      arrowGlacierBlock: 0,
      grayGlacierBlock: 0,
      mergeNetsplitBlock: 0,
      terminalTotalDifficulty: 0,
      shanghaiTime: 0,
      cancunTime: 0,
      pragueTime: 0,
      osakaTime: 0,
      depositContractAddress: '0x00000000219ab540356cbb839cbe05303d7705fa',
      blobSchedule: {
        cancun: { target: 3, max: 6, baseFeeUpdateFraction: 3338477 },
        prague: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
        osaka: { target: 6, max: 9, baseFeeUpdateFraction: 5007716 },
      },
    },
    nonce: '0x0',
    timestamp: '0x0',
    extraData: '0x',
    gasLimit: '0x2255100',
    difficulty: '0x0',
    mixHash: `0x${'00'.repeat(32)}`,
    coinbase: `0x${'00'.repeat(20)}`,
    alloc,
  }
}
