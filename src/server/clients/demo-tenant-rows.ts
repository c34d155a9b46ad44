/**
 * How many of a database's clients and calls belong to the hidden demo tenant, as one plain SQL
 * statement every dialect reads: the restore command runs it on a staged SQLite copy or a
 * pg client before the app's own Kysely handle exists, and leaves these rows out of its summary.
 * The demo tenant is marked by its onboarding state (demo/demo-data.ts).
 */
export const DEMO_TENANT_ROWS_SQL = `select (select count(*) from clients where onboarding_status = 'demo') as clients,
  (select count(*) from calls where client_id in
    (select id from clients where onboarding_status = 'demo')) as calls`;
