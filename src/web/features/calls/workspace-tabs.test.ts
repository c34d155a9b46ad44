import { describe, expect, it } from 'vitest';
import { tabAfterKey } from './workspace-tabs';

describe('tabAfterKey', () => {
  it('moves along the tabs with the arrow keys, wrapping at both ends, as Radix Tabs did', () => {
    expect(tabAfterKey('ArrowRight', 0, 2)).toBe(1);
    expect(tabAfterKey('ArrowRight', 1, 2)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 1, 2)).toBe(0);
    expect(tabAfterKey('ArrowLeft', 0, 2)).toBe(1);
  });
  it('goes to the first and last tab with Home and End, and ignores other keys', () => {
    expect(tabAfterKey('Home', 2, 3)).toBe(0);
    expect(tabAfterKey('End', 0, 3)).toBe(2);
    expect(tabAfterKey('Enter', 0, 3)).toBeNull();
    expect(tabAfterKey('ArrowDown', 0, 3)).toBeNull();
  });
});
