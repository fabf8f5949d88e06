import { describe, expect, it } from 'vitest';
import { IsoDateTime } from './common';

describe('IsoDateTime', () => {
  it('takes ISO 8601 times with an offset between 1900 and 9999', () => {
    for (const t of ['2026-11-25T04:01:49.771Z', '1900-01-01T00:00:00Z', '9999-12-31T23:59:59+00:00', '2026-01-01T18:31:03.192046+03:00']) {
      expect(IsoDateTime.safeParse(t).success, t).toBe(true);
    }
  });

  it('refuses years the stores cannot give back, and text that is no time', () => {
    // the fuzz run's input: year 0023 with a +18:32 offset answered 500 on POST /disciplinary/admin
    for (const t of ['0023-01-01T18:31:03.192046+18:32', '1899-12-31T23:59:59Z', '2026-13-01T00:00:00Z', 'yesterday']) {
      expect(IsoDateTime.safeParse(t).success, t).toBe(false);
    }
    expect(IsoDateTime.safeParse('tomorrow').error?.issues).toHaveLength(1); // one issue naming the field, not two
  });
});
