import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { makeDirs } from '../util/makeDirs.js'

/** Reads the 32-byte hex JWT secret (authentication.md), creating the file with a fresh secret when missing. */
export function loadOrCreateJwtSecret(path: string): { secret: Buffer; created: boolean } {
  if (!existsSync(path)) {
    makeDirs(dirname(path))
    const secret = randomBytes(32)
    writeFileSync(path, `0x${secret.toString('hex')}\n`, { mode: 0o600 })
    return { secret, created: true }
  }
  const text = readFileSync(path, 'utf8').trim().replace(/^0x/, '')
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${path}: JWT secret must be 32 bytes of hex`)
  return { secret: Buffer.from(text, 'hex'), created: false }
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url')

/** An HS256 token with `iat` = now, as a consensus client sends it. */
export function signJwt(secret: Buffer, iat = Math.floor(Date.now() / 1000)): string {
  const head = b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))
  const body = b64url(JSON.stringify({ iat }))
  const sig = createHmac('sha256', secret).update(`${head}.${body}`).digest()
  return `${head}.${body}.${b64url(sig)}`
}

/**
 * Checks an `Authorization: Bearer <jwt>` header: HS256 only, valid signature, `iat` within ±60 s of now.
 * Returns the reason it fails, or undefined when it passes.
 */
export function checkJwt(header: string, secret: Buffer, nowSeconds = Math.floor(Date.now() / 1000)): string | undefined {
  const m = /^Bearer\s+([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]*)$/.exec(header)
  if (m === null) return 'missing or malformed bearer token'
  const [, head, body, sig] = m as unknown as [string, string, string, string]
  let alg: unknown
  let iat: unknown
  try {
    alg = (JSON.parse(Buffer.from(head, 'base64url').toString()) as { alg?: unknown }).alg
    iat = (JSON.parse(Buffer.from(body, 'base64url').toString()) as { iat?: unknown }).iat
  } catch {
    return 'token is not JSON'
  }
  if (alg !== 'HS256') return 'token algorithm must be HS256'
  const expected = createHmac('sha256', secret).update(`${head}.${body}`).digest()
  const given = Buffer.from(sig, 'base64url')
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid token signature'
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'token has no iat claim'
  if (Math.abs(nowSeconds - iat) > 60) return 'token iat is more than 60 seconds away from now'
  return undefined
}
