// The fork schedule of a chain, in activation order, as geth-style genesis files name it.

export type ForkName =
  | 'homestead'
  | 'dao'
  | 'tangerineWhistle'
  | 'spuriousDragon'
  | 'byzantium'
  | 'constantinople'
  | 'petersburg'
  | 'istanbul'
  | 'muirGlacier'
  | 'berlin'
  | 'london'
  | 'arrowGlacier'
  | 'grayGlacier'
  | 'paris'
  | 'shanghai'
  | 'cancun'
  | 'prague'
  | 'osaka'
  | 'bpo1'
  | 'bpo2'
  | 'bpo3'
  | 'bpo4'
  | 'bpo5'

export interface ForkDef {
  name: ForkName
  /** The genesis.json config key that schedules it. */
  key: string
  by: 'block' | 'time'
}

/** Every fork Sponge knows, in order. `paris` is scheduled by mergeNetsplitBlock (the first post-merge block). */
export const FORKS: readonly ForkDef[] = [
  { name: 'homestead', key: 'homesteadBlock', by: 'block' },
  { name: 'dao', key: 'daoForkBlock', by: 'block' },
  { name: 'tangerineWhistle', key: 'eip150Block', by: 'block' },
  { name: 'spuriousDragon', key: 'eip155Block', by: 'block' },
  { name: 'byzantium', key: 'byzantiumBlock', by: 'block' },
  { name: 'constantinople', key: 'constantinopleBlock', by: 'block' },
  { name: 'petersburg', key: 'petersburgBlock', by: 'block' },
  { name: 'istanbul', key: 'istanbulBlock', by: 'block' },
  { name: 'muirGlacier', key: 'muirGlacierBlock', by: 'block' },
  { name: 'berlin', key: 'berlinBlock', by: 'block' },
  { name: 'london', key: 'londonBlock', by: 'block' },
  { name: 'arrowGlacier', key: 'arrowGlacierBlock', by: 'block' },
  { name: 'grayGlacier', key: 'grayGlacierBlock', by: 'block' },
  { name: 'paris', key: 'mergeNetsplitBlock', by: 'block' },
  { name: 'shanghai', key: 'shanghaiTime', by: 'time' },
  { name: 'cancun', key: 'cancunTime', by: 'time' },
  { name: 'prague', key: 'pragueTime', by: 'time' },
  { name: 'osaka', key: 'osakaTime', by: 'time' },
  { name: 'bpo1', key: 'bpo1Time', by: 'time' },
  { name: 'bpo2', key: 'bpo2Time', by: 'time' },
  { name: 'bpo3', key: 'bpo3Time', by: 'time' },
  { name: 'bpo4', key: 'bpo4Time', by: 'time' },
  { name: 'bpo5', key: 'bpo5Time', by: 'time' },
]

export const FORK_INDEX: Readonly<Record<ForkName, number>> = Object.fromEntries(FORKS.map((f, i) => [f.name, i])) as Record<ForkName, number>

export interface BlobParams {
  target: number
  max: number
  baseFeeUpdateFraction: number
}

export interface ScheduledFork {
  name: ForkName
  by: 'block' | 'time'
  at: bigint
}
