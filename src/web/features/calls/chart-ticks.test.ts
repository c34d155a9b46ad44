import { describe, expect, it } from 'vitest';
import { labelStep, showsLabel } from './chart-ticks';

describe('chart labels', () => {
  it('shows every label when they fit', () => {
    expect(labelStep(7, 700)).toBe(1);
    expect([0, 1, 6].map((i) => showsLabel(i, 7, 1))).toEqual([true, true, true]);
  });

  it('keeps the last label and every step-th going back on a narrow chart', () => {
    const step = labelStep(25, 300);
    expect(step).toBe(6);
    const shown = Array.from({ length: 25 }, (_, i) => i).filter((i) => showsLabel(i, 25, step));
    expect(shown).toEqual([0, 6, 12, 18, 24]);
  });

  it('never divides by a zero width', () => {
    expect(labelStep(10, 0)).toBe(640);
    expect(showsLabel(9, 10, 640)).toBe(true);
  });
});
