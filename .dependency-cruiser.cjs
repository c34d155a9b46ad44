/**
 * The server's layering (ARCHITECTURE.md), checked by `npm run depcruise` and in `npm test`.
 * Rules work on imports; "only clients/ touches the clients table" is a query rule, checked by
 * src/server/clients/clients-repository.test.ts instead.
 *
 * Every folder directly under src/server/ is a feature unless it is listed in FLOOR: a new folder
 * is covered without editing this file. A feature imports the floor freely, and another feature
 * only along the written chain (ALLOWED, each pair with its reason); anything else fails.
 */
const fs = require('node:fs');
const path = require('node:path');

/** Below the features: plumbing, the clients gate and the shared modules every feature may use. */
const FLOOR = {
  access: 'who may do what: permissions, masked callers\' numbers, notification choices',
  activity: 'the one activity and audit log (writer and reader)',
  background: 'one lease and one resumable walk over a client\'s calls, for work one instance does',
  'call-rows': 'a stored call as the API speaks it, its quality and insight columns, usage',
  clients: 'the only gate to the clients table',
  crypto: 'secret box, tokens',
  db: 'connect, schema, migrations',
  http: 'plumbing: errors, route schemas, jobs, metrics (app.ts and api-docs.ts excepted below)',
  providers: 'the outside services',
  time: 'time zones and date windows',
};

const FEATURE_NAMES = fs
  .readdirSync(path.join(__dirname, 'src/server'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !(entry.name in FLOOR))
  .map((entry) => entry.name)
  .sort();
const FEATURES = `^src/server/(${FEATURE_NAMES.join('|')})/`;

/**
 * The written chain: calls/{ingest,read} → calls/write → outcomes, notifications, live, agency
 * (and what a call is made of at write: privacy, quality); dashboard → calls/read; everything →
 * the clients gate and the floor. Each other pair a feature may import, with why. A target ending
 * in a sub-folder allows only that part of the feature.
 */
const ALLOWED = {
  account: { auth: 'the Security tab changes a password and reads the attempt limits of sign-in' },
  agency: {
    auth: 'the admin guard; a client login set up with a temporary password',
    quality: 'the portfolio and at-risk lists show quality figures (agency-quality.ts)',
  },
  billing: {
    auth: 'the client guard',
    brand: 'checkout pages carry the brand',
    notifications: 'payment e-mails go through the outbox to the right people',
  },
  brand: { auth: 'the admin guard' },
  calls: {
    auth: 'the guards; recordings check the session',
    agency: 'calls/write keeps the agency running totals (client-days.ts) in its transaction',
    live: 'after a write, live events',
    notifications: 'after a write, alerts',
    outcomes: 'after a write, classification; the outcome reads and attention list are calls views',
    privacy: 'every call is made fit to store (redact-call.ts) before it is written',
    quality: 'every call with a conversation is measured before it is written; its Quality tab',
  },
  dashboard: {
    'calls/read': 'the first screen is the calls views read once',
    outcomes: 'the attention list and the classification guard of the first screen',
  },
  demo: {
    auth: 'the admin guard of sample data',
    calls: 'the demo tenant is a calls view, its sample calls written through the calls store',
    dashboard: 'the demo first screen',
  },
  live: { auth: 'the stream checks the session' },
  notifications: {
    account: 'what a client chose to be told (notification-prefs.ts)',
    auth: 'the client guard of the webhook endpoint',
    brand: 'every e-mail and text carries the brand',
    outcomes: 'alerts name the outcome',
    reports: 'scheduled reports are sent as messages',
  },
  outcomes: { auth: 'the client and admin guards' },
  privacy: {
    auth: 'the client and admin guards',
    brand: 'the erasure receipt carries the brand',
    reports: 'the erasure receipt is a PDF',
  },
  quality: {
    auth: 'the client and admin guards',
    outcomes: 'the thresholds are stored and classified with the outcomes',
  },
  reports: { auth: 'the client guard', brand: 'the PDF header', 'calls/read': 'the period figures' },
  teams: {
    account: 'a user\'s notification choices are the account\'s',
    auth: 'sign-in, passwords, sessions and two-factor of the people it manages',
    brand: 'invitation e-mails carry the brand',
    notifications: 'invitation e-mails and texts go through the outbox',
  },
};

/**
 * Imports against the chain that stay for now, each by file: the walks over a client's calls
 * (re-redaction, retention, quality backfill, re-classification) and erasure write `calls` through
 * calls/write from below it.
 */
const AGAINST_THE_CHAIN = [
  '^src/server/privacy/(re-redaction|retention|erasure)[.]ts$',
  '^src/server/outcomes/reclassify[.]ts$',
];

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const chainRules = FEATURE_NAMES.map((feature) => {
  const allowed = [feature, ...Object.keys(ALLOWED[feature] ?? {})].map(escape);
  return {
    name: `chain-${feature}`,
    severity: 'error',
    comment: `${feature}/ imports another feature only along the chain (ALLOWED.${feature} in .dependency-cruiser.cjs).`,
    from: { path: `^src/server/${escape(feature)}/`, pathNot: AGAINST_THE_CHAIN },
    to: { path: FEATURES, pathNot: `^src/server/(${allowed.join('|')})/` },
  };
});

module.exports = {
  forbidden: [
    ...chainRules,
    {
      name: 'floor-imports-no-feature',
      severity: 'error',
      comment: 'The floor (FLOOR in .dependency-cruiser.cjs) sits below every feature and imports none.',
      from: { path: `^src/server/(${Object.keys(FLOOR).filter((name) => name !== 'http').join('|')})/` },
      to: { path: FEATURES },
    },
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
