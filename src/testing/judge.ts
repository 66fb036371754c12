import { isDeepStrictEqual } from 'node:util'

/**
 * The reference harness's rules (test/fixtures/conformance/README.md): replies compare as JSON (key order free, array
 * order and string case exact); where both carry an error, only its code counts; a `speconly` case needs only a
 * non-error result of the expected shape.
 */
export function judge(expectedText: string, actualText: string, speconly: boolean): string | undefined {
  let actual: unknown
  try {
    actual = JSON.parse(actualText)
  } catch {
    return `reply is not JSON: ${actualText.slice(0, 200)}`
  }
  const expected = JSON.parse(expectedText) as Record<string, unknown>
  const got = actual as Record<string, unknown>
  if (speconly && typeof got === 'object' && got !== null && 'result' in got && !('error' in got)) {
    return sameShape(expected.result, got.result, 'result')
  }
  if (isObject(expected.error) && isObject(got.error)) {
    const e = { ...expected, error: { ...expected.error, message: undefined } }
    const a = { ...got, error: { ...got.error, message: undefined } }
    return isDeepStrictEqual(e, a) ? undefined : `error differs: want ${expectedText}, got ${actualText}`
  }
  if (isDeepStrictEqual(expected, got)) return undefined
  return firstDifference(expected, got, '') ?? 'replies differ'
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function sameShape(want: unknown, got: unknown, path: string): string | undefined {
  if (want === null) return undefined
  if (Array.isArray(want)) return Array.isArray(got) ? undefined : `${path}: want an array`
  if (isObject(want)) {
    if (!isObject(got)) return `${path}: want an object`
    for (const k of Object.keys(want)) {
      if (!(k in got)) return `${path}.${k}: missing`
      const d = sameShape(want[k], got[k], `${path}.${k}`)
      if (d !== undefined) return d
    }
    for (const k of Object.keys(got)) if (!(k in want)) return `${path}.${k}: unexpected member`
    return undefined
  }
  return typeof want === typeof got ? undefined : `${path}: want a ${typeof want}`
}

function firstDifference(want: unknown, got: unknown, path: string): string | undefined {
  if (isObject(want) && isObject(got)) {
    for (const k of new Set([...Object.keys(want), ...Object.keys(got)])) {
      if (!(k in got)) return `${path}.${k}: missing (want ${JSON.stringify(want[k]).slice(0, 120)})`
      if (!(k in want)) return `${path}.${k}: unexpected (${JSON.stringify(got[k]).slice(0, 120)})`
      const d = firstDifference(want[k], got[k], `${path}.${k}`)
      if (d !== undefined) return d
    }
    return undefined
  }
  if (Array.isArray(want) && Array.isArray(got)) {
    if (want.length !== got.length) return `${path}: want ${want.length} items, got ${got.length}`
    for (let i = 0; i < want.length; i++) {
      const d = firstDifference(want[i], got[i], `${path}[${i}]`)
      if (d !== undefined) return d
    }
    return undefined
  }
  return isDeepStrictEqual(want, got) ? undefined : `${path}: want ${JSON.stringify(want).slice(0, 200)}, got ${JSON.stringify(got).slice(0, 200)}`
}
