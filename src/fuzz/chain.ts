import { devAccounts } from '../chain/dev.js'
import type { GethGenesisFile } from '../chain/genesis.js'
import type { ChainSpec } from '../chain/spec.js'
import { LOOP_FOREVER, assemble } from '../testing/asm.js'
import { devGenesisWith, signedTransfer } from '../testing/testNode.js'
import { rpc } from './post.js'

// The chain the heavy cases run on: the dev chain with contracts whose replies are large (code of several sizes, a
// call returning as many bytes as it is asked for, blocks of big logs) and one that loops until its gas runs out.

/** Code of 3,000, 12,000 and 24,000 bytes (JUMPDESTs): eth_getCode replies of 6, 24 and 48 KB of hex. */
export const CODES: Record<string, string> = {
  '0x00000000000000000000000000000000000f0001': `0x${'5b'.repeat(3_000)}`,
  '0x00000000000000000000000000000000000f0002': `0x${'5b'.repeat(12_000)}`,
  '0x00000000000000000000000000000000000f0003': `0x${'5b'.repeat(24_000)}`,
}
/** Returns calldata word 0 zero bytes: RETURN(0, CALLDATALOAD(0)). */
export const ECHO = '0x00000000000000000000000000000000000f0004'
/** Logs 4,096 zero bytes under topic 1 on every call. */
export const LOGGER = '0x00000000000000000000000000000000000f0005'
export const LOG_BYTES = 4096
/** Jumps back to its start until its gas runs out. */
export const LOOP = '0x00000000000000000000000000000000000f0006'
/** The dev account that sends the logging transactions. */
export const LOG_SENDER = 1

export function fuzzGenesis(): GethGenesisFile {
  return devGenesisWith({
    ...CODES,
    [ECHO]: assemble(['0x00', 'CALLDATALOAD', '0x00', 'RETURN']),
    [LOGGER]: assemble(['0x01', '0x1000', '0x00', 'LOG1', 'STOP']),
    [LOOP]: LOOP_FOREVER,
  })
}

/**
 * Sends `count` calls of LOGGER on a node that makes a block per transaction and returns the numbers of the blocks
 * that hold them (a send is answered once its block exists, but the receipt is read to learn where it went).
 */
export async function makeLogBlocks(url: string, spec: ChainSpec, count: number): Promise<number[]> {
  let nonce = Number(BigInt(await rpc<string>(url, 'eth_getTransactionCount', [devAccounts()[LOG_SENDER]!.address, 'pending'])))
  const hashes: string[] = []
  for (let i = 0; i < count; i++) {
    hashes.push(
      await rpc<string>(url, 'eth_sendRawTransaction', [signedTransfer(spec, LOG_SENDER, nonce++, { to: LOGGER, gas: 200_000n, value: 0n })]),
    )
  }
  const blocks: number[] = []
  for (const hash of hashes) {
    // On `--chain dev` (and a test node) a send is answered once its block is made: the receipt is there at the first
    // read. With --dev.period it is mined within the period: read again, 10 ms apart, for at most 10 s.
    for (let tries = 0; ; tries++) {
      const r = await rpc<{ blockNumber: string; logs: unknown[] } | null>(url, 'eth_getTransactionReceipt', [hash])
      if (r !== null) {
        if (r.logs.length !== 1) throw new Error(`logging transaction ${hash} made ${r.logs.length} logs`)
        blocks.push(Number(BigInt(r.blockNumber)))
        break
      }
      if (tries >= 1000) throw new Error(`no receipt for ${hash}`)
      await new Promise<void>((resolve) => setTimeout(resolve, 10))
    }
  }
  return blocks
}
