/**
 * The console can never lock itself out (point 5): two admins switching each other off
 * at the same moment leave one of them active, and an operator locked out anyway gets back in
 * through a restart with ADMIN_USERNAME/ADMIN_PASSWORD or `cli admin activate`.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { activateAdmin, ensureAdmin } from '../../src/server/seed';
import { createAdminUser, loginAdmin } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`admin lock-out (${TEST_DB})`, () => {
  let t: TestApp;
  afterAll(() => t.close());

  /** Exactly two active admins, each signed in. */
  async function twoAdmins() {
    await t.deps.db.updateTable('admins').set({ is_active: 0 }).execute();
    const ada = await createAdminUser(t.deps);
    const bob = await createAdminUser(t.deps);
    return {
      ada: { ...ada, cookie: await loginAdmin(t.app, ada.username, ada.password) },
      bob: { ...bob, cookie: await loginAdmin(t.app, bob.username, bob.password) },
    };
  }
  const activeCount = async () =>
    (await t.deps.db.selectFrom('admins').select('id').where('is_active', '=', 1).execute()).length;
  const deactivate = (cookie: string, id: string) =>
    t.app.inject({ method: 'POST', url: `/api/admin/admins/${id}/deactivate`, headers: { cookie } });

  beforeEach(async () => {
    t ??= await createTestApp();
  });

  it('leaves one admin when two deactivate each other at the same moment', async () => {
    for (let round = 0; round < 5; round++) {
      const { ada, bob } = await twoAdmins();
      const answers = await Promise.all([deactivate(ada.cookie, bob.id), deactivate(bob.cookie, ada.id)]);
      const statuses = answers.map((a) => a.statusCode).sort();
      expect(
        statuses.filter((s) => s === 200),
        answers.map((a) => a.body).join(' | '),
      ).toHaveLength(1);
      expect(await activeCount()).toBe(1);
    }
  });

  it('refuses a deactivation asked by an admin who was just switched off', async () => {
    const { ada, bob } = await twoAdmins();
    expect((await deactivate(ada.cookie, bob.id)).statusCode).toBe(200);
    // Bob is off and signed out: his session no longer answers.
    expect((await deactivate(bob.cookie, ada.id)).statusCode).toBe(401);
    expect(await activeCount()).toBe(1);
  });

  it('brings a deactivated admin back through ADMIN_USERNAME/ADMIN_PASSWORD and the CLI', async () => {
    const { ada, bob } = await twoAdmins();
    await t.deps.db.updateTable('admins').set({ is_active: 0 }).execute();
    expect(await activeCount()).toBe(0);

    await ensureAdmin(t.deps.db, { username: ada.username, password: 'a-new-password-1' });
    await loginAdmin(t.app, ada.username, 'a-new-password-1');

    expect(await activateAdmin(t.deps.db, bob.username.toUpperCase())).toBe(true);
    await loginAdmin(t.app, bob.username, bob.password);
    expect(await activateAdmin(t.deps.db, 'nobody-here')).toBe(false);
  });
});
