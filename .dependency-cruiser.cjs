/* global module */
/**
 * The package boundaries `pnpm lint` holds (CONVENTIONS 23): what another package may import is
 * the contract (packages/contracts), platform and geodata. A service speaks to another over HTTP
 * or the bus; code two services share goes down into packages/. Whole-system tests and tools live
 * in tools/ (and the console's browser tests in apps/console/e2e), which may import any service.
 * Imports are followed to the files they resolve to, so a relative path into another package
 * counts as much as its package name; type-only imports count too.
 */
module.exports = {
  forbidden: [
    {
      name: 'service-imports-another-service',
      comment: 'a service talks to another over HTTP or the bus; shared code belongs in packages/platform or packages/contracts',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'service-imports-tools-or-an-app',
      comment: 'tools and apps sit above the services: a service never imports them',
      severity: 'error',
      from: { path: '^services/' },
      to: { path: '^(tools|apps)/' },
    },
    {
      name: 'console-imports-a-service',
      comment: 'the console knows the services through packages/contracts (the API) only',
      severity: 'error',
      from: { path: '^apps/console/src/' },
      to: { path: '^(services|tools|packages/platform)/' },
    },
    {
      name: 'package-imports-a-service',
      comment: 'packages/ sit below the services, the apps and the tools and never import them back',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^(services|apps|tools)/' },
    },
    {
      name: 'ops-api-module-imports-the-app',
      comment:
        'ops-api modules (src/<module>/) are fastify plugins that app.ts registers, once each (CONVENTIONS 22, 23): a module is handed what it uses and never imports app.ts, the module list or the service entry back (its whole-service tests may)',
      severity: 'error',
      from: { path: '^services/ops-api/src/[^/]+/', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/ops-api/src/(app|main|index|reference-checks)\\.ts$' },
    },
    {
      name: 'ops-api-shared-code-imports-a-module',
      comment:
        'ops-api code below the modules (module.ts, the generic resource service in resources/, db/, clickhouse/) never imports a module back: a registry of modules there would point both ways (the old resources/tracking-modules.ts)',
      severity: 'error',
      from: { path: '^services/ops-api/src/(module\\.ts$|resources/|db/|clickhouse/)', pathNot: '\\.test\\.ts$' },
      to: { path: '^services/ops-api/src/', pathNot: '^services/ops-api/src/(module\\.ts$|resources/|db/|clickhouse/|audit/audit\\.ts$)' },
    },
    {
      name: 'import-that-does-not-resolve',
      comment:
        'an import of a package the importer does not declare (another service, say) or of a file that is not there (geojson and topojson-specification are types only, from @types/geojson and topojson-specification, which the resolver does not read)',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^(geojson|topojson-specification)$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'default'],
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
    },
  },
};
