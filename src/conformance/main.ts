import { randomBytes } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { intFlag, parseFlags } from '../cli/args.js'
import { signJwt } from '../engine/jwt.js'
import { conformancePath } from '../testing/paths.js'
import { runEest } from './eest.js'
import { runRpcCompat } from './rpcCompat.js'

// `npm run conformance [-- --suite rpc-compat|eest] [--skip m1,m2] [--http.threads n] [--jobs n]`: the project's own
// conformance runner; --http.threads is passed to the rpc-compat node (serving threads on its port), --jobs is how
// many eest cases run at once (default: one per core).
const args = parseFlags(process.argv.slice(2), { suite: 'string', only: 'string', skip: 'string', 'http.threads': 'string', jobs: 'string' })
const httpThreads = args.flags.get('http.threads')
const jobs = intFlag(args.flags, 'jobs', availableParallelism(), 1)
/** The suite's data folder, or exit 2 with the path and the fix (testing/paths.ts says where the data lives). */
function suiteDir(name: string): string {
  try {
    return conformancePath(name)
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`)
    process.exit(2)
  }
}
const suites = (args.flags.get('suite') ?? 'rpc-compat').split(',')
const onlyFlag = args.flags.get('only')
const only = onlyFlag === undefined ? undefined : new RegExp(onlyFlag)
const skip = (args.flags.get('skip') ?? '').split(',').filter((s) => s.length > 0)
const print = (line: string) => process.stdout.write(`${line}\n`)

/** A JWT secret for the node under test, and fresh tokens signed with it. */
function engineAuth(): { jwtSecretFile: string; engineHeaders: () => Record<string, string> } {
  const file = join(mkdtempSync(join(tmpdir(), 'sponge-jwt-')), 'jwt.hex')
  const secret = randomBytes(32)
  writeFileSync(file, secret.toString('hex'))
  return { jwtSecretFile: file, engineHeaders: () => ({ authorization: `Bearer ${signJwt(secret)}` }) }
}

let passed = 0
let failed = 0
for (const suite of suites) {
  print(`== ${suite}`)
  const verdicts =
    suite === 'rpc-compat'
      ? await runRpcCompat(
          { dir: suiteDir('rpc-compat'), skip, ...engineAuth(), nodeArgs: httpThreads === undefined ? [] : ['--http.threads', httpThreads] },
          print,
        )
      : suite === 'eest'
        ? await runEest(suiteDir('eest'), print, only, jobs)
        : (() => {
            throw new Error(`unknown suite ${suite}`)
          })()
  for (const v of verdicts) v.ok ? passed++ : failed++
}
print(`conformance: ${passed} passed, ${failed} failed`)
process.exitCode = failed === 0 ? 0 : 1
