/**
 * What a handler returns: a plain JSON value (stringified by the envelope) or pre-encoded JSON text/bytes read
 * from the store, spliced into the reply as-is. Bytes may be a transient store view (valid until the next store
 * read): a synchronous handler returns it straight after reading, and the envelope copies it before reading again.
 */
export class RawJson {
  constructor(readonly chunks: (string | Uint8Array)[]) {}

  static of(...chunks: (string | Uint8Array)[]): RawJson {
    return new RawJson(chunks)
  }
}

export type Reply = RawJson | string | number | boolean | null | object
