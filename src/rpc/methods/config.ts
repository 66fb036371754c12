import { type EthConfig, ethConfig } from '../../chain/ethConfig.js'
import type { NodeContext } from '../context.js'
import { bytesToHex } from '../../util/hex.js'
import { RawJson } from '../reply.js'
import { headerTimestamp } from './chainReads.js'
import type { NoParams } from '../../wire/ethParams.js'

let cache: { head: string; json: RawJson<EthConfig> } | undefined

/** EIP-7910 eth_config, at the head's timestamp; computed and serialized only when the head moves. */
export function config(_: NoParams, ctx: Pick<NodeContext, 'chain' | 'spec' | 'genesisHash' | 'store'>): RawJson<EthConfig> {
  const head = ctx.chain.head()
  const key = bytesToHex(head.hash)
  if (cache?.head !== key) {
    const config: EthConfig = ethConfig(ctx.spec, ctx.genesisHash, headerTimestamp(ctx, head.hash))
    cache = { head: key, json: RawJson.of<EthConfig>(JSON.stringify(config)) }
  }
  return cache.json
}

/** The chain id in decimal. */
export function netVersion(_: NoParams, ctx: Pick<NodeContext, 'spec'>): string {
  return ctx.spec.chainId.toString()
}

export function clientVersion(_: NoParams, ctx: Pick<NodeContext, 'clientVersion'>): string {
  return ctx.clientVersion
}
