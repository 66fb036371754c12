// The decoder lives with the block path that shares it (exec/txDecode.ts); the pool and the rules know it from here.
export { type DecodedTx, decodeTx, type WrappedBlobTx } from '../exec/txDecode.js'
