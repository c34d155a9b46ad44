import { describe, expect, it } from 'vitest';
import { INDUSTRY_OPTIONS, SIZE_OPTIONS, sizeOptionsFor } from './options';

describe('the company options the wizard and Edit Client offer', () => {
  it('are one list of industries and sizes, in order, without overlapping sizes', () => {
    expect(INDUSTRY_OPTIONS.map((o) => o.label)).toEqual([
      'Technology',
      'Healthcare',
      'Finance',
      'Education',
      'Retail',
      'Manufacturing',
      'Real Estate',
      'Other',
    ]);
    expect(SIZE_OPTIONS.map((o) => o.value)).toEqual([
      '1-10',
      '11-50',
      '51-200',
      '201-500',
      '501-1000',
      '1000+',
    ]);
  });

  it('keep a size an older list stored, for that client only', () => {
    expect(sizeOptionsFor('11-50')).toBe(SIZE_OPTIONS);
    expect(sizeOptionsFor(null)).toBe(SIZE_OPTIONS);
    expect(sizeOptionsFor('201-1000').map((o) => o.value)).toEqual([
      ...SIZE_OPTIONS.map((o) => o.value),
      '201-1000',
    ]);
  });
});
