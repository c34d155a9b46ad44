/**
 * The server's layering (ARCHITECTURE.md), checked by `npm run depcruise` and in `npm test`.
 * Rules work on imports; "only clients/ touches the clients table" is a query rule, checked by
 * src/server/clients/clients-repository.test.ts instead.
 */
const FEATURES =
  '^src/server/(account|agency|audit|auth|billing|calls|clients|demo|live|notifications|operations|outcomes|reports|teams)/';

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'A module never reaches itself again through its imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'migrations-import-only-db',
      severity: 'error',
      comment: 'A migration is frozen in time: it imports only db/ (and node, kysely), never app code.',
      from: { path: '^src/server/db/migrations/' },
      to: { dependencyTypesNot: ['core', 'npm'], pathNot: '^src/server/db/' },
    },
    {
      name: 'web-never-imports-server',
      severity: 'error',
      comment: 'The browser shares only src/contract with the server.',
      from: { path: '^src/web/' },
      to: { path: '^src/server/' },
    },
    {
      name: 'providers-import-no-feature',
      severity: 'error',
      comment: 'providers/ speak to outside services and know nothing of the features that use them.',
      from: { path: '^src/server/providers/' },
      to: { path: FEATURES },
    },
    {
      name: 'calls-write-not-ingest-or-read',
      severity: 'error',
      comment: 'Writing a call does not depend on how calls arrive (ingest/) or are read (read/).',
      from: { path: '^src/server/calls/write/' },
      to: { path: '^src/server/calls/(ingest|read)/' },
    },
    {
      name: 'http-imports-no-feature',
      severity: 'error',
      comment:
        'http/ is the plumbing features build on and looks up at none; the composition root (app.ts, api-docs.ts beside bootstrap.ts) registers them.',
      from: { path: '^src/server/http/' },
      to: { path: FEATURES },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['es6', 'cjs'],
  },
};
