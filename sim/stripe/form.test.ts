import { describe, expect, it } from 'vitest';
import { StripeSimError } from './errors';
import { applyMetadata, parseForm } from './form';
import { addInterval } from './objects';
import { stripeSignatureHeader } from './webhooks';

describe('parseForm (Stripe form encoding)', () => {
  it('nests bracketed keys, indexed and appended arrays', () => {
    const form = parseForm(
      'customer=cus_1&items[0][price]=price_1&items[1][price]=price_2&expand[]=latest_invoice.confirmation_secret&metadata[clientId]=c%201&payment_settings[save_default_payment_method]=on_subscription',
    );
    expect(form).toEqual({
      customer: 'cus_1',
      items: [{ price: 'price_1' }, { price: 'price_2' }],
      expand: ['latest_invoice.confirmation_secret'],
      metadata: { clientId: 'c 1' },
      payment_settings: { save_default_payment_method: 'on_subscription' },
    });
  });

  it('keeps numeric metadata keys as a hash and reads the SDK\u2019s indexed expand', () => {
    expect(parseForm('metadata[0]=a&expand[0]=x&expand[1]=y')).toEqual({
      metadata: { 0: 'a' },
      expand: ['x', 'y'],
    });
  });

  it('refuses prototype keys, gaps in arrays and mixed shapes', () => {
    expect(() => parseForm('__proto__[x]=1')).toThrow(StripeSimError);
    expect(() => parseForm('items[1][price]=p')).toThrow(StripeSimError);
    expect(() => parseForm('a=1&a[b]=2')).toThrow(StripeSimError);
  });

  it('metadata: empty value deletes a key, empty hash clears', () => {
    expect(applyMetadata({ a: '1', b: '2' }, parseForm('metadata[a]=&metadata[c]=3'))).toEqual({
      b: '2',
      c: '3',
    });
    expect(applyMetadata({ a: '1' }, parseForm('metadata='))).toEqual({});
  });
});

describe('calendar months', () => {
  it('adds a month in UTC and clamps to the last day', () => {
    const jan31 = Date.UTC(2025, 0, 31, 12) / 1000;
    expect(new Date(addInterval(jan31, 'month', 1) * 1000).toISOString()).toBe('2025-02-28T12:00:00.000Z');
    expect(new Date(addInterval(jan31, 'year', 1) * 1000).toISOString()).toBe('2026-01-31T12:00:00.000Z');
  });
});

describe('stripeSignatureHeader', () => {
  it('is HMAC-SHA256 of "t.payload" in hex, as Stripe documents', () => {
    // Computed independently: printf '1700000000.{}' | openssl dgst -sha256 -hmac whsec_test
    expect(stripeSignatureHeader('{}', 'whsec_test', 1700000000)).toBe(
      't=1700000000,v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91',
    );
  });
});
