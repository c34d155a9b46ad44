/**
 * What the provider says a call achieved ("Keep what the provider sends"): stored from
 * webhooks, merged without losing values, shown in the call detail (the agency's price only to
 * the admin), and filled in for older calls from their stored payloads.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backfillCallInsights } from '../../src/server/db/migrations/005_call_insights';
import { blandCallBody, deliverWebhook } from '../helpers/bland';
import { createAdminUser, createClient, loginAdmin, loginClient } from '../helpers/factories';
import { createTestApp, TEST_DB, type TestApp } from '../helpers/test-app';

describe(`call insights (${TEST_DB})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  const deliver = (token: string, body: unknown) => deliverWebhook(t.app, token, body);
  const rowOf = (clientId: string, providerCallId: string) =>
    t.deps.db
      .selectFrom('calls')
      .selectAll()
      .where('client_id', '=', clientId)
      .where('provider_call_id', '=', providerCallId)
      .executeTakeFirstOrThrow();

  const insightful = {
    answered_by: 'Human',
    call_ended_by: 'ASSISTANT',
    summary: '  The caller booked a cleaning for Tuesday at 3pm.  ',
    disposition_tag: 'APPOINTMENT_BOOKED',
    error_message: null,
    price: 0.135,
    analysis: { appointment_booked: true, callback_requested: false },
    variables: { appointment_time: 'Tuesday 3pm', input: { rooms: 3 } },
  };

  it('stores what the provider said and shows it in the call detail; the price only to the admin', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody(insightful);
    expect((await deliver(client.webhook_token, body)).statusCode).toBe(200);
    const row = await rowOf(client.id, String(body.call_id));
    expect(row).toMatchObject({
      answered_by: 'human',
      call_ended_by: 'assistant',
      summary: 'The caller booked a cleaning for Tuesday at 3pm.',
      disposition_tag: 'APPOINTMENT_BOOKED',
      error_message: null,
      provider_price_micros: 135_000,
    });

    const cookie = await loginClient(t.app, client.email);
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/client/calls/${row.id}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const detail = res.json();
    expect(detail).toMatchObject({
      id: row.id,
      providerCallId: body.call_id,
      answeredBy: 'human',
      endedBy: 'assistant',
      dispositionTag: 'APPOINTMENT_BOOKED',
      errorMessage: null,
      analysis: { appointment_booked: true, callback_requested: false },
      variables: { appointment_time: 'Tuesday 3pm', input: { rooms: 3 } },
    });
    // The agency's cost is its business, not the client's.
    expect(detail).not.toHaveProperty('providerPrice');

    const { username, password } = await createAdminUser(t.deps);
    const admin = await loginAdmin(t.app, username, password);
    const asAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/admin/client-calls/${client.id}/${row.id}`,
      headers: { cookie: admin },
    });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json()).toMatchObject({ providerPrice: 0.14, summary: detail.summary });
  });

  it('keeps values a later delivery lacks; a newer value replaces an older one', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody(insightful);
    await deliver(client.webhook_token, body);
    // A later delivery without a summary or tag (Bland omits fields freely) erases nothing.
    const { summary, disposition_tag, analysis, ...rest } = body as Record<string, unknown>;
    void summary;
    void disposition_tag;
    void analysis;
    await deliver(client.webhook_token, { ...rest, call_ended_by: 'USER', variables: null });
    const row = await rowOf(client.id, String(body.call_id));
    expect(row).toMatchObject({
      summary: 'The caller booked a cleaning for Tuesday at 3pm.',
      disposition_tag: 'APPOINTMENT_BOOKED',
      call_ended_by: 'user',
    });
    expect(JSON.parse(row.variables_json ?? 'null')).toEqual({
      appointment_time: 'Tuesday 3pm',
      input: { rooms: 3 },
    });
  });

  it('refuses nothing for odd insight fields: wrong types read as absent, long text is cut, big objects dropped', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody({
      summary: 'x'.repeat(20_000),
      answered_by: 42,
      disposition_tag: ['not', 'a', 'string'],
      analysis: 'not an object',
      variables: { blob: 'y'.repeat(20_000) },
    });
    expect((await deliver(client.webhook_token, body)).statusCode).toBe(200);
    const row = await rowOf(client.id, String(body.call_id));
    expect(row.summary).toHaveLength(8_000);
    expect(row.answered_by).toBeNull();
    expect(row.disposition_tag).toBeNull();
    expect(row.analysis_json).toBeNull();
    expect(row.variables_json).toBeNull();
  });

  it("answers 404 for another client's call, a missing one, and a call the provider has not confirmed", async () => {
    const owner = await createClient(t.deps);
    const other = await createClient(t.deps);
    const body = blandCallBody(insightful);
    await deliver(owner.webhook_token, body);
    const row = await rowOf(owner.id, String(body.call_id));
    const cookie = await loginClient(t.app, other.email);
    for (const id of [row.id, 'no-such-call']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/client/calls/${id}`, headers: { cookie } });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Call not found');
    }
    await t.deps.db.updateTable('calls').set({ verified: 0 }).where('id', '=', row.id).execute();
    const ownerCookie = await loginClient(t.app, owner.email);
    const unconfirmed = await t.app.inject({
      method: 'GET',
      url: `/api/client/calls/${row.id}`,
      headers: { cookie: ownerCookie },
    });
    expect(unconfirmed.statusCode).toBe(404);
  });

  it('fills in calls stored before the columns existed from their stored payloads', async () => {
    const client = await createClient(t.deps);
    const body = blandCallBody(insightful);
    await deliver(client.webhook_token, body);
    const before = await rowOf(client.id, String(body.call_id));
    // As a call stored by an older version looks: the payload, none of the new columns.
    await t.deps.db
      .updateTable('calls')
      .set({
        summary: null,
        answered_by: null,
        call_ended_by: null,
        disposition_tag: null,
        analysis_json: null,
        variables_json: null,
        provider_price_micros: null,
      })
      .where('id', '=', before.id)
      .execute();
    // Migrations see an untyped database, as the migrator hands it to them.
    expect(await backfillCallInsights(t.deps.db as unknown as Kysely<unknown>)).toBeGreaterThanOrEqual(1);
    const after = await rowOf(client.id, String(body.call_id));
    expect(after).toMatchObject({
      summary: before.summary,
      answered_by: 'human',
      call_ended_by: 'assistant',
      disposition_tag: 'APPOINTMENT_BOOKED',
      provider_price_micros: 135_000,
      analysis_json: before.analysis_json,
      variables_json: before.variables_json,
    });
  });
});
