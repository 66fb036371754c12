/**
 * Pre-encoded JSON text/bytes read from the store, spliced into the reply as-is. `T` is the wire type the chunks
 * encode: a phantom (declared, never set: no field at run time), so a handler returning stored receipt bytes says
 * `RawJson<ReceiptResult>` and the method table checks that against the method's result. Bytes may be a transient
 * store view (valid until the next store read): a synchronous handler returns it straight after reading, and the
 * envelope copies it before reading again.
 */
export class RawJson<T = unknown> {
  /** Types only: what the chunks encode. */
  declare readonly encodes?: T

  constructor(readonly chunks: (string | Uint8Array)[]) {}

  /** The chunks as the encoding of a `T`: the caller vouches for that (the bytes were written from one). */
  static of<T>(...chunks: (string | Uint8Array)[]): RawJson<T> {
    return new RawJson<T>(chunks)
  }
}

/** A result as a handler gives it: the value (stringified by the envelope), or its pre-encoded JSON. */
export type Encoded<R> = R | RawJson<R>

/** What a handler of a method with result `R` returns: the result, now or promised. */
export type Result<R> = Encoded<R> | Promise<Encoded<R>>

/** What the envelope writes: any handler's result, erased. */
export type Reply = RawJson | string | number | boolean | null | object
