import type { ChainSpec } from '../chain/spec.js'
import { FeeOracle } from '../fees/feeOracle.js'
import type { NodeContext } from '../rpc/context.js'
import { TxReplies } from '../store/txReplies.js'
import { FlatStateReader } from '../state/flatStateReader.js'
import type { ChainReader } from '../store/chainReader.js'
import type { ChainStore } from '../store/chainStore.js'
import { NODE_DEFAULTS } from './defaults.js'
import { ThreadCalls } from '../calls/threadCalls.js'
import { warmUpCalls } from '../calls/warmUp.js'
import { EvmConfig } from '../vm/evmConfig.js'

/** The settings both a node and a reader take for their reads (an omitted one takes its NODE_DEFAULTS value). */
export interface ReadSettings {
  devAccounts?: { address: string; privateKey: string }[]
  gasCap?: bigint
  evmTimeoutMs?: number
  logsMaxRange?: number
  logsMaxResults?: number
  maxReplyBytes?: number
}

/** Only the read settings of a node's or a reader's options: what crosses to a serving thread. */
export function readSettingsOf(o: ReadSettings): ReadSettings {
  return {
    ...(o.devAccounts === undefined ? {} : { devAccounts: o.devAccounts }),
    ...(o.gasCap === undefined ? {} : { gasCap: o.gasCap }),
    ...(o.evmTimeoutMs === undefined ? {} : { evmTimeoutMs: o.evmTimeoutMs }),
    ...(o.logsMaxRange === undefined ? {} : { logsMaxRange: o.logsMaxRange }),
    ...(o.logsMaxResults === undefined ? {} : { logsMaxResults: o.logsMaxResults }),
    ...(o.maxReplyBytes === undefined ? {} : { maxReplyBytes: o.maxReplyBytes }),
  }
}

/** The context members a node and a reader make alike: the chain's reads, fees, flat state, dev accounts, limits. */
export function sharedContext(
  spec: ChainSpec,
  store: ChainStore,
  chain: ChainReader,
  o: ReadSettings,
): Pick<
  NodeContext,
  'spec' | 'store' | 'chain' | 'clientVersion' | 'fees' | 'flatState' | 'txReplies' | 'calls' | 'devAccounts' | 'devKeys' | 'limits'
> {
  const evmConfig = new EvmConfig(spec, store)
  const head = store.getLabel('head') ?? store.getLabel('genesis')
  // The interpreter is optimized before the first call needs it to be (calls/warmUp.ts).
  if (head !== undefined) warmUpCalls(evmConfig, head)
  return {
    spec,
    store,
    chain,
    calls: new ThreadCalls(evmConfig),
    clientVersion: CLIENT_VERSION,
    fees: new FeeOracle(spec, store),
    flatState: new FlatStateReader(store),
    txReplies: new TxReplies(store),
    devAccounts: (o.devAccounts ?? []).map((a) => a.address),
    devKeys: new Map((o.devAccounts ?? []).map((a) => [a.address.toLowerCase(), a.privateKey])),
    limits: {
      gasCap: o.gasCap ?? NODE_DEFAULTS.gasCap,
      evmTimeoutMs: o.evmTimeoutMs ?? NODE_DEFAULTS.evmTimeoutMs,
      logsMaxRange: o.logsMaxRange ?? NODE_DEFAULTS.logsMaxRange,
      logsMaxResults: o.logsMaxResults ?? NODE_DEFAULTS.logsMaxResults,
      maxReplyBytes: o.maxReplyBytes ?? NODE_DEFAULTS.maxReplyBytes,
    },
  }
}

export const CLIENT_VERSION = 'Sponge/v0.1.0/linux-x64/node20'
