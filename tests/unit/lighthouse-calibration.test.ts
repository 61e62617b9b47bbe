// The Lighthouse spec's CPU slowdown (scripts/lib/lighthouse.ts, docs/performance.md "Pages on a
// phone"): Lighthouse's calibration of its benchmarkIndex, never more than the preset's 4×.
import { describe, expect, it } from 'vitest';
import { cpuSlowdownFor } from '../../scripts/lib/lighthouse.ts';

describe('cpuSlowdownFor', () => {
  it('gives Lighthouse’s calibration points and a straight line between them', () => {
    expect(cpuSlowdownFor(150)).toBe(1);
    expect(cpuSlowdownFor(800)).toBe(2);
    expect(cpuSlowdownFor(1300)).toBe(3);
    expect(cpuSlowdownFor(1533)).toBe(4);
    expect(cpuSlowdownFor(475)).toBe(1.5);
    expect(cpuSlowdownFor(1050)).toBe(2.5);
  });

  it('keeps the preset’s 4× on a faster machine and 1× on a very slow one', () => {
    expect(cpuSlowdownFor(1800)).toBe(4);
    expect(cpuSlowdownFor(5000)).toBe(4);
    expect(cpuSlowdownFor(100)).toBe(1);
    expect(cpuSlowdownFor(Number.NaN)).toBe(1);
  });

  it('never slows a faster machine less than a slower one', () => {
    let previous = 0;
    for (let index = 0; index <= 2500; index += 10) {
      const slowdown = cpuSlowdownFor(index);
      expect(slowdown).toBeGreaterThanOrEqual(previous);
      previous = slowdown;
    }
  });
});
