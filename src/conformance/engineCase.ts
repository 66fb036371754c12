// An Engine API case (test/fixtures/conformance/eest/README.md gives the format): its steps and the final state they
// must leave, checked against a running node. Shared by the shipped cases' runner (eest.ts) and the one converting
// blockchain-test fixtures on the fly (eestChain/).

/** A step's required answer: a status, or any of a list of statuses and JSON-RPC error codes. */
export type Expect = string | (string | { errorCode: number })[]

export interface Step {
  method: string
  params: unknown[]
  expect: Expect
  /** The fixture's expectException, for the reader of a failure. */
  exception?: string
}

/** An account's expected state at the head; a field left out is not checked. */
export interface Account {
  balance?: string
  nonce?: string
  code?: string
  storage?: Record<string, string>
}

export interface EngineCase {
  id: string
  network?: string
  chainId: string
  genesisHash: string
  steps: Step[]
  final: { lastblockhash: string; accounts: Record<string, Account> }
}

export interface Reply {
  result?: unknown
  error?: { code: number; message: string }
}

/** How a case reaches the node: the authenticated Engine API and the public JSON-RPC. */
export interface CaseClient {
  engine(method: string, params: unknown[]): Promise<Reply>
  read(method: string, params: unknown[]): Promise<Reply>
}

interface StatusResult {
  status?: string
  validationError?: string | null
  payloadStatus?: { status: string; validationError?: string | null }
}

/** Why a step's answer is not the one it expects; undefined when it is. */
export function stepVerdict(step: Step, reply: Reply): string | undefined {
  const allowed = Array.isArray(step.expect) ? step.expect : [step.expect]
  const error = reply.error
  if (error !== undefined) {
    const ok = allowed.some((a) => typeof a === 'object' && a.errorCode === error.code)
    return ok ? undefined : `${step.method}: error ${error.code} ${error.message}, want ${JSON.stringify(step.expect)}`
  }
  const result = (reply.result ?? {}) as StatusResult
  const status = result.status ?? result.payloadStatus?.status
  if (status !== undefined && allowed.includes(status)) return undefined
  const why = result.validationError ?? result.payloadStatus?.validationError ?? ''
  return `${step.method}: ${status} ${why}, want ${JSON.stringify(step.expect)}`
}

const num = (v: unknown) => BigInt(typeof v === 'string' ? v : '0x0')

async function readResult(client: CaseClient, method: string, params: unknown[]): Promise<unknown> {
  const r = await client.read(method, params)
  if (r.error !== undefined) throw new Error(`${method}: error ${r.error.code} ${r.error.message}`)
  return r.result
}

/** Why the node's head and accounts differ from `final`; undefined when they match. */
export async function finalVerdict(client: CaseClient, final: EngineCase['final']): Promise<string | undefined> {
  const latest = (await readResult(client, 'eth_getBlockByNumber', ['latest', false])) as { hash: string }
  if (latest.hash !== final.lastblockhash) return `head ${latest.hash}, want ${final.lastblockhash}`
  for (const [address, want] of Object.entries(final.accounts)) {
    if (want.balance !== undefined) {
      const balance = await readResult(client, 'eth_getBalance', [address, 'latest'])
      if (num(balance) !== num(want.balance)) return `${address} balance ${balance}, want ${want.balance}`
    }
    if (want.nonce !== undefined) {
      const nonce = await readResult(client, 'eth_getTransactionCount', [address, 'latest'])
      if (num(nonce) !== num(want.nonce)) return `${address} nonce ${nonce}, want ${want.nonce}`
    }
    if (want.code !== undefined) {
      const code = (await readResult(client, 'eth_getCode', [address, 'latest'])) as string
      if (code.toLowerCase() !== want.code.toLowerCase()) return `${address} code differs`
    }
    for (const [slot, value] of Object.entries(want.storage ?? {})) {
      const got = await readResult(client, 'eth_getStorageAt', [address, slot, 'latest'])
      if (num(got) !== num(value)) return `${address} storage ${slot} = ${got}, want ${value}`
    }
  }
  return undefined
}

/**
 * Runs a case on a node started with its genesis: checks the chain id and genesis hash, sends the steps in order,
 * each answer against its `expect`, then the final state. Returns why it failed, or undefined when it passed.
 */
export async function runEngineCase(c: EngineCase, client: CaseClient): Promise<string | undefined> {
  const chainId = (await readResult(client, 'eth_chainId', [])) as string
  if (BigInt(chainId) !== BigInt(c.chainId)) return `chain id ${chainId}, want ${c.chainId}`
  const genesis = (await readResult(client, 'eth_getBlockByNumber', ['0x0', false])) as { hash: string }
  if (genesis.hash !== c.genesisHash) return `genesis ${genesis.hash}, want ${c.genesisHash}`
  for (const [i, step] of c.steps.entries()) {
    const why = stepVerdict(step, await client.engine(step.method, step.params))
    if (why !== undefined) return `step ${i}: ${why}${step.exception === undefined ? '' : ` (${step.exception})`}`
  }
  return finalVerdict(client, c.final)
}
