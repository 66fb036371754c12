import { readFileSync } from 'node:fs'

/** A geth-style genesis file, as read from disk (numbers may be JSON numbers or hex strings). */
export interface GethGenesisFile {
  config: Record<string, unknown> & {
    chainId: number | string
    blobSchedule?: Record<string, { target: number; max: number; baseFeeUpdateFraction: number }>
    depositContractAddress?: string
    terminalTotalDifficulty?: number | string
  }
  nonce?: string
  timestamp?: string | number
  extraData?: string
  gasLimit: string | number
  difficulty?: string | number
  mixHash?: string
  coinbase?: string
  baseFeePerGas?: string | null
  excessBlobGas?: string | null
  blobGasUsed?: string | null
  number?: string
  gasUsed?: string
  parentHash?: string
  alloc: Record<string, GenesisAccount>
}

export interface GenesisAccount {
  balance?: string
  nonce?: string | number
  code?: string
  storage?: Record<string, string>
}

export function readGenesisFile(path: string): GethGenesisFile {
  let parsed: unknown
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'))
  } catch (e) {
    throw new Error(e instanceof SyntaxError ? `${path}: not valid JSON (${e.message})` : (e as Error).message)
  }
  if (typeof parsed !== 'object' || parsed === null || !('config' in parsed) || !('alloc' in parsed)) {
    throw new Error(`${path}: not a geth-style genesis (needs "config" and "alloc")`)
  }
  return parsed as GethGenesisFile
}

/** Geth writes numbers in genesis files either as JSON numbers or as hex/decimal strings. */
export function genesisNumber(v: unknown, fallback = 0n): bigint {
  if (v === undefined || v === null) return fallback
  if (typeof v === 'number') return BigInt(v)
  if (typeof v === 'bigint') return v
  if (typeof v === 'string') return v === '' ? fallback : BigInt(v)
  throw new Error(`not a number: ${JSON.stringify(v)}`)
}
