import { describe, expect, it } from 'vitest';
import { MAX_STORED_PAYLOAD_BYTES, storedPayload } from './stored-payload';

describe('storedPayload', () => {
  it('keeps the provider fields without the transcript copies', () => {
    const stored = storedPayload({
      call_id: 'c-1',
      price: 0.3,
      transcripts: [{ text: 'hello' }],
      concatenated_transcript: 'hello',
    });
    expect(JSON.parse(stored ?? '')).toEqual({ call_id: 'c-1', price: 0.3 });
  });

  it('stays within its bound however large the body, keeping the short fields', () => {
    const stored = storedPayload({
      call_id: 'c-2',
      completed: true,
      variables: { blob: 'x'.repeat(900_000) },
      summary: 'y'.repeat(50_000),
    });
    expect(Buffer.byteLength(stored ?? '')).toBeLessThanOrEqual(MAX_STORED_PAYLOAD_BYTES);
    expect(JSON.parse(stored ?? '')).toEqual({ _truncated: true, call_id: 'c-2', completed: true });
  });

  it('stores nothing for what is not an object', () => {
    expect(storedPayload(undefined)).toBeNull();
    expect(storedPayload([1, 2])).toBeNull();
  });
});
