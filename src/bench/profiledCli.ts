import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { REPO_ROOT } from '../testing/paths.js'

// `node dist/bench/load.js --cli dist/bench/profiledCli.js …` (any bench that takes --cli): the node under load runs
// under V8's CPU profiler. The benches start a CLI as `node <cli> node …`, and Node refuses --cpu-prof in
// NODE_OPTIONS, so this stands in for the CLI and starts the real one with the flag. One profile per thread lands
// in $SPONGE_PROF_DIR (default bench/results/profiles) when the node exits; `profileSummary.js` reads them. The
// bench's "node CPU" column then measures this wrapper, not the node.

const cli = fileURLToPath(new URL('../cli/main.js', import.meta.url))
const dir = process.env.SPONGE_PROF_DIR ?? join(REPO_ROOT, 'bench', 'results', 'profiles')
const child = spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${dir}`, cli, ...process.argv.slice(2)], { stdio: 'inherit' })
// The benches stop the node with SIGTERM: it must reach the node, whose graceful exit writes the profiles.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal))
child.on('exit', (code, signal) => process.exit(code ?? (signal === null ? 1 : 128)))
