import { describe, expect, it } from 'vitest';
import { addMonths, isoTime } from './state';
import { crc32, paypalJson, rawMember } from './webhooks';

describe('PayPal signing helpers', () => {
  it('crc32 is the IEEE checksum PayPal signs', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
  });

  it('times look like PayPal\u2019s and months are calendar months', () => {
    const jan31 = Date.UTC(2025, 0, 31, 9, 30);
    expect(isoTime(jan31)).toBe('2025-01-31T09:30:00Z');
    expect(isoTime(addMonths(jan31, 1))).toBe('2025-02-28T09:30:00Z');
  });
});

describe('the bytes PayPal sends', () => {
  const event = {
    id: 'WH-1',
    event_type: 'BILLING.SUBSCRIPTION.ACTIVATED',
    resource_version: '2.0',
    summary: 'Subscription activated: "Pro" plan',
    resource: {
      id: 'I-ABC',
      links: [{ href: 'https://api.paypal.com/v1/billing/subscriptions/I-ABC', rel: 'self' }],
    },
  };

  it('are JSON that parses to the event but does not survive JSON.parse then JSON.stringify', () => {
    const body = paypalJson(event);
    expect(JSON.parse(body)).toEqual(event);
    expect(body).toContain('https:\\/\\/api.paypal.com\\/v1');
    expect(body).toContain('"event_type": "BILLING.SUBSCRIPTION.ACTIVATED"');
    expect(JSON.stringify(JSON.parse(body))).not.toBe(body);
  });

  it('rawMember reads one member of a request exactly as written', () => {
    const body = paypalJson(event);
    const request = `{"transmission_id":"t-1","webhook_event":${body},"webhook_id":"W"}`;
    expect(rawMember(request, 'webhook_event')).toBe(body);
    expect(rawMember(request, 'webhook_id')).toBe('"W"');
    expect(rawMember('{"nested":{"webhook_event":1}}', 'webhook_event')).toBeNull();
  });
});
