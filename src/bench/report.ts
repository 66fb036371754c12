// A self-contained HTML report (inline SVG, no scripts) of bench:load results.

export interface LoadRow {
  workload: string
  connections: number
  requestsPerSec: number
  callsPerSec: number
  p50ms: number
  p90ms: number
  p99ms: number
  maxMs: number
  errors: number
  /** With `--count` (wrk.ts's counting script): calls answered with a result, and error replies of any code, per second. */
  resultsPerSec?: number | undefined
  refusedPerSec?: number | undefined
  errorRepliesPerSec?: number | undefined
  nodeCpu: number
  generatorCpu: number
}

const COLORS = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf']

function lineChart(title: string, rows: LoadRow[], value: (r: LoadRow) => number, unit: string): string {
  const workloads = [...new Set(rows.map((r) => r.workload))]
  const conns = [...new Set(rows.map((r) => r.connections))].sort((a, b) => a - b)
  const max = Math.max(1, ...rows.map(value))
  const W = 640
  const H = 300
  const x = (i: number) => 60 + (i * (W - 220)) / Math.max(1, conns.length - 1)
  const y = (v: number) => H - 30 - (v / max) * (H - 60)
  let svg = `<svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="11">`
  svg += `<text x="10" y="16" font-size="13">${title}</text>`
  svg += `<line x1="60" y1="${H - 30}" x2="${W - 160}" y2="${H - 30}" stroke="#999"/><line x1="60" y1="30" x2="60" y2="${H - 30}" stroke="#999"/>`
  svg += `<text x="4" y="34">${max.toFixed(0)} ${unit}</text><text x="40" y="${H - 32}">0</text>`
  for (let i = 0; i < conns.length; i++) svg += `<text x="${x(i) - 8}" y="${H - 14}">${conns[i]}</text>`
  svg += `<text x="${(W - 160) / 2}" y="${H - 2}">connections</text>`
  workloads.forEach((w, k) => {
    const pts = conns
      .map((c, i) => {
        const r = rows.find((q) => q.workload === w && q.connections === c)
        return r === undefined ? undefined : `${x(i)},${y(value(r))}`
      })
      .filter((p) => p !== undefined)
    const color = COLORS[k % COLORS.length]
    svg += `<polyline fill="none" stroke="${color}" stroke-width="2" points="${pts.join(' ')}"/>`
    svg += `<rect x="${W - 150}" y="${30 + k * 16}" width="10" height="10" fill="${color}"/><text x="${W - 136}" y="${39 + k * 16}">${w}</text>`
  })
  return `${svg}</svg>`
}

function latencyBars(rows: LoadRow[], connections: number): string {
  const sel = rows.filter((r) => r.connections === connections)
  const max = Math.max(0.001, ...sel.map((r) => r.p99ms))
  const W = 640
  const rowH = 22
  const H = 40 + sel.length * rowH
  let svg = `<svg width="${W}" height="${H}" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="11">`
  svg += `<text x="10" y="16" font-size="13">Latency percentiles at ${connections} connections (p50 / p90 / p99, ms)</text>`
  sel.forEach((r, i) => {
    const yy = 30 + i * rowH
    const scale = (v: number) => (v / max) * (W - 320)
    svg += `<text x="4" y="${yy + 12}">${r.workload}</text>`
    svg += `<rect x="180" y="${yy}" width="${scale(r.p99ms)}" height="14" fill="#d62728" opacity="0.5"/>`
    svg += `<rect x="180" y="${yy}" width="${scale(r.p90ms)}" height="14" fill="#ff7f0e" opacity="0.7"/>`
    svg += `<rect x="180" y="${yy}" width="${scale(r.p50ms)}" height="14" fill="#1f77b4"/>`
    svg += `<text x="${185 + scale(r.p99ms)}" y="${yy + 12}">${r.p50ms.toFixed(2)} / ${r.p90ms.toFixed(2)} / ${r.p99ms.toFixed(2)}</text>`
  })
  return `${svg}</svg>`
}

export function htmlReport(title: string, rows: LoadRow[], extra: string): string {
  const conns = [...new Set(rows.map((r) => r.connections))].sort((a, b) => a - b)
  const table = rows
    .map(
      (r) =>
        `<tr><td>${r.workload}</td><td>${r.connections}</td><td>${r.requestsPerSec.toFixed(0)}</td><td>${r.callsPerSec.toFixed(0)}</td><td>${r.p50ms.toFixed(2)}</td><td>${r.p90ms.toFixed(2)}</td><td>${r.p99ms.toFixed(2)}</td><td>${r.maxMs.toFixed(2)}</td><td>${r.errors}</td><td>${(r.nodeCpu * 100).toFixed(0)}%</td><td>${(r.generatorCpu * 100).toFixed(0)}%</td></tr>`,
    )
    .join('\n')
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}td:first-child{text-align:left}</style></head><body>
<h1>${title}</h1>
${lineChart('Throughput against concurrency (requests/s)', rows, (r) => r.requestsPerSec, 'req/s')}
${conns.map((c) => latencyBars(rows, c)).join('\n')}
<h2>All runs</h2>
<table><tr><th>workload</th><th>conns</th><th>req/s</th><th>calls/s</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>max ms</th><th>errors</th><th>node CPU</th><th>wrk CPU</th></tr>
${table}</table>
${extra}
</body></html>`
}
