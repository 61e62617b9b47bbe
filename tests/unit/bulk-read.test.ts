// Aggregated lists read back into numbers exactly as Number() would read each entry.
import { describe, expect, it } from 'vitest';
import { numbersOf, stringsOf } from '../../server/db/bulk-read.ts';

describe('numbersOf', () => {
  it('reads integers, decimals, negatives, empty entries and exponents', () => {
    const list = '1,-2,32.8872,13.1913,,0,2000000.0,1e+21,-0.5,123456789012345678,7';
    const expected = list.split(',').map((p) => (p === '' ? Number.NaN : Number(p)));
    const got = [...numbersOf(list)];
    expect(got).toHaveLength(expected.length);
    got.forEach((v, i) => {
      if (Number.isNaN(expected[i] as number)) expect(v).toBeNaN();
      else expect(v).toBeCloseTo(expected[i] as number, 9);
    });
  });

  it('reads nothing from an empty or missing list', () => {
    expect(numbersOf('')).toHaveLength(0);
    expect(numbersOf(null)).toHaveLength(0);
    expect(stringsOf(undefined)).toEqual([]);
    expect([...numbersOf('5')]).toEqual([5]);
  });
});
