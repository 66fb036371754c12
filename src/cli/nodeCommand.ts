import type { ChainSpec } from '../chain/spec.js'
import type { ParsedArgs } from './args.js'

export async function runNode(_spec: ChainSpec, _datadir: string, _args: ParsedArgs): Promise<number> {
  throw new Error('not yet')
}
