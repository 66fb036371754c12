// The error model. A layer that refuses something says what, as a domain error: its class (the family: a rejected
// transaction, a simulation, a full lane, …), a `kind` within it and typed `data` — never a JSON-RPC code. The one
// table from kinds to JSON-RPC codes is src/rpc/errorMap.ts. A domain error thrown in a worker crosses to the serving
// thread as plain data (`toWire`) and is rebuilt there as the same class, kind and data (`fromWire`, with the table of
// classes in src/workers/errors.ts). Anything that is not a domain error is the node's own failure: JSON-RPC -32603,
// logged with its stack.

/** Data that structured clone (postMessage) carries unchanged. */
export type WireData = string | number | boolean | bigint | null | Uint8Array | readonly WireData[] | { readonly [key: string]: WireData }

/** A domain error as plain data. */
export interface WireError {
  /** The class's `name`: which family the kind belongs to. */
  name: string
  kind: string
  message: string
  data?: WireData
}

export abstract class DomainError<K extends string = string, D extends WireData | undefined = WireData | undefined> extends Error {
  /** The class's own name, as a literal: the key it is rebuilt by (a bundler may rename the class itself). */
  abstract override readonly name: string

  /** Every subclass that crosses a thread keeps this signature (message, kind, data): fromWire calls it so. */
  constructor(
    message: string,
    readonly kind: K,
    readonly data: D,
  ) {
    super(message)
  }

  toWire(): WireError {
    const w: WireError = { name: this.name, kind: this.kind, message: this.message }
    if (this.data !== undefined) w.data = this.data
    return w
  }
}

/** A domain error class whose constructor takes (message, kind, data), so that fromWire can rebuild it. */
export type RebuildableError = new (message: string, kind: never, data: never) => DomainError

/**
 * Rebuilds a wire error as the class it was, from `classes` keyed by name (written as `{ TxRejectedError, … }`);
 * undefined when no class there has its name.
 */
export function fromWire(w: WireError, classes: Readonly<Record<string, RebuildableError>>): DomainError | undefined {
  const C = Object.hasOwn(classes, w.name) ? classes[w.name] : undefined
  // The kind and data were written by an instance of the same class (the worker runs the same build).
  return C === undefined ? undefined : new C(w.message, w.kind as never, w.data as never)
}
