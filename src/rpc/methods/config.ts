import { type EthConfig, ethConfig } from '../../chain/ethConfig.js'
import type { NodeContext } from '../context.js'
import { bytesToHex } from '../../util/hex.js'
import { RawJson, type Reply } from '../reply.js'
import { headerTimestamp } from './chainReads.js'

let cache: { head: string; json: RawJson } | undefined

/** EIP-7910 eth_config, at the head's timestamp; computed and serialized only when the head moves. */
export function config(_: [], ctx: NodeContext): Reply {
  const head = ctx.chain.head()
  const key = bytesToHex(head.hash)
  if (cache?.head !== key) {
    const config: EthConfig = ethConfig(ctx.spec, ctx.genesisHash, headerTimestamp(ctx, head.hash))
    cache = { head: key, json: RawJson.of(JSON.stringify(config)) }
  }
  return cache.json
}

export function netVersion(_: [], ctx: NodeContext): Reply {
  return ctx.spec.chainId.toString()
}

export function clientVersion(_: [], ctx: NodeContext): Reply {
  return ctx.clientVersion
}
