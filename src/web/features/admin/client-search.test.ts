import { describe, expect, it } from 'vitest';
import { filterClients, matchesClientSearch } from './client-search';

const ann = { companyName: 'Harbor Dental', email: 'ann@harbor.example', firstName: 'Ann', lastName: 'Lee' };
const bob = { companyName: null, email: 'bob@shop.example', firstName: 'Bob', lastName: 'Stone' };

describe('client search', () => {
  it('matches company, e-mail, first and last name, ignoring case', () => {
    expect(matchesClientSearch(ann, 'HARBOR')).toBe(true);
    expect(matchesClientSearch(ann, 'ann@')).toBe(true);
    expect(matchesClientSearch(ann, 'lee')).toBe(true);
    expect(matchesClientSearch(ann, 'ann lee')).toBe(true);
    expect(matchesClientSearch(bob, 'harbor')).toBe(false);
  });

  it('treats an empty query as everything and survives a missing company', () => {
    expect(filterClients([ann, bob], '  ')).toEqual([ann, bob]);
    expect(filterClients([ann, bob], 'stone')).toEqual([bob]);
  });
});
