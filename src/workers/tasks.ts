// Messages between the serving thread and the worker pool. Plain structured-clone data only.

export interface WorkerInit {
  datadir: string
  genesisJson: string
}

export type StateQuery =
  | { kind: 'balance'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'nonce'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'code'; blockHash: Uint8Array; address: Uint8Array }
  | { kind: 'storage'; blockHash: Uint8Array; address: Uint8Array; slot: Uint8Array }

export type Task =
  | { op: 'ping' }
  | { op: 'state'; query: StateQuery }
  | { op: 'receipt'; txHash: Uint8Array }

/** State answers travel as hex text: bigints and bytes both clone cheaply that way. */
export type TaskResult = string | null
