// What debug_trace* ask of a trace (decoded from the wire's TraceConfig by the handler): the tracer and its options.
// Plain data: it crosses to the worker.

export interface TraceOptions {
  tracer?: 'callTracer' | 'prestateTracer'
  disableStack?: boolean
  disableStorage?: boolean
  enableMemory?: boolean
  enableReturnData?: boolean
  onlyTopCall?: boolean
  withLog?: boolean
  diffMode?: boolean
}
