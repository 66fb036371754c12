// The layers of src/, bottom to top: a folder imports only from folders listed before it (and itself). The README's
// layout table states the same order. `npm test` runs `npm run layers` (dependency-cruiser) and fails on an import
// that goes up a layer, on a file cycle, and on a folder of src/ that is in no layer.
const LAYERS = [
  'util',
  'crypto',
  'chain',
  'codecs',
  'wire',
  'store',
  'trie',
  'state',
  'evm/precompiles',
  'evm',
  'tracers',
  'vm',
  'exec',
  'import',
  'txrules',
  'engine/worker',
  'calls',
  'logs',
  'workers',
  'txpool',
  'engine',
  'subscriptions',
  'dev',
  'fees',
  'rpc',
  'rpc/methods',
  'node',
  'cli',
  'testing',
  'conformance',
  'conformance/eestState',
  'conformance/eestChain',
  'crash',
  'fuzz',
  'bench',
]

/** The files of one layer: rpc's own files are not rpc/methods'. */
const filesOf = (layer) => `^src/${layer}/[^/]+$`
const anyOf = (layers) => (layers.length === 0 ? '^$' : `(${layers.map(filesOf).join('|')})`)
const isTest = '\\.test\\.ts$'

const layerRules = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1)
  return [
    {
      name: `layer-${layer}`,
      comment: `${layer} imports only the layers below it (.dependency-cruiser.cjs lists them)`,
      severity: 'error',
      from: { path: filesOf(layer), pathNot: isTest },
      to: { path: anyOf(above) },
    },
    {
      name: `layer-${layer}-tests`,
      comment: `${layer}'s tests import their layer, the layers below and the shared test helpers (src/testing)`,
      severity: 'error',
      from: { path: `${filesOf(layer)}`, pathNot: `^(?!.*${isTest})` },
      to: { path: anyOf(above.filter((l) => l !== 'testing')) },
    },
  ]
})

module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'node-no-dev-dependencies',
      comment:
        "the node imports only its dependencies: devDependencies (EthereumJS's VM, EVM, state manager and trie, kept as the baselines) are for tests, their helpers (src/testing) and the tools (src/bench, src/conformance, src/fuzz, src/crash)",
      severity: 'error',
      from: { path: '^src/', pathNot: [isTest, '^src/(testing|bench|conformance|fuzz|crash)/'] },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'ethereumjs-vm-as-baseline-only',
      comment: "EthereumJS's VM, EVM and state manager are a baseline to compare with, never the node's: the same rule by name",
      severity: 'error',
      from: { path: '^src/', pathNot: [isTest, '^src/(testing|bench|conformance|fuzz|crash)/'] },
      to: { path: '^node_modules/@ethereumjs/(vm|evm|statemanager)/' },
    },
    {
      name: 'no-file-cycles',
      comment: 'no module imports itself through others',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'every-folder-in-a-layer',
      comment: 'a new folder of src/ takes its place in LAYERS first',
      severity: 'error',
      from: { path: '^src/', pathNot: `(${LAYERS.map(filesOf).join('|')})` },
      to: {},
    },
    {
      name: 'every-file-in-a-layer',
      comment: 'the same for a file that imports nothing',
      severity: 'error',
      from: { path: '^src/', pathNot: `(${LAYERS.map(filesOf).join('|')})`, orphan: true },
      to: {},
    },
    {
      name: 'src-stays-in-src',
      comment: 'the node never imports tools or scripts from outside src/ (a test may check a build script)',
      severity: 'error',
      from: { path: '^src/', pathNot: isTest },
      to: { pathNot: '^(src/|node_modules/)', dependencyTypesNot: ['core'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    // node_modules stays in the graph (not followed) so that rules can name the packages imported.
    exclude: { path: '^dist/' },
  },
}
