import { describe, expect, it } from 'vitest';
import { redactUrl } from './logging';

describe('redactUrl', () => {
  it('replaces the webhook token, whatever its encoding', () => {
    expect(redactUrl('/api/webhooks/voice/abc123?x=1')).toBe('/api/webhooks/voice/[redacted]?x=1');
    expect(redactUrl('/api/%77ebhooks/voice/abc123')).toBe('/api/webhooks/voice/[redacted]');
  });

  it('logs no search text, phone or e-mail typed to find a caller', () => {
    expect(redactUrl('/api/client/calls?page=2&search=john%20smith&dateRange=7d')).toBe(
      '/api/client/calls?page=2&search=[redacted]&dateRange=7d',
    );
    expect(redactUrl('/dashboard?q=%2B12125550100')).toBe('/dashboard?q=[redacted]');
    expect(redactUrl('/x?email=a%40b.co&phone=123')).toBe('/x?email=[redacted]&phone=[redacted]');
  });

  it('keeps only the last four digits of any other long number in the query', () => {
    expect(redactUrl('/api/client/calls?from=%2B1%20212%20555%200100')).toBe(
      '/api/client/calls?from=%2B•••0100',
    );
    expect(redactUrl('/api/x?card=4242-4242-4242-4242')).toBe('/api/x?card=•••4242');
    expect(redactUrl('/api/client/calls?page=12&limit=25')).toBe('/api/client/calls?page=12&limit=25');
  });

  it('leaves paths and short values alone', () => {
    expect(redactUrl('/api/client/calls/6f1c0c1e-1111-4222-8333-444455556666')).toBe(
      '/api/client/calls/6f1c0c1e-1111-4222-8333-444455556666',
    );
  });
});
