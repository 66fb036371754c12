import { devGenesis } from '../chain/dev.js'
import { readGenesisFile } from '../chain/genesis.js'
import { ChainSpec } from '../chain/spec.js'

/** `--chain dev` or a path to a geth-style genesis.json. */
export function loadSpec(chain: string): ChainSpec {
  return new ChainSpec(chain === 'dev' ? devGenesis() : readGenesisFile(chain))
}
