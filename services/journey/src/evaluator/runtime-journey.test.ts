import { describe, expect, it } from 'vitest';
import { currentJourney, type RuntimeJourney } from './runtime-journey';

const hour = 3600_000;
const journey = (id: number, state: 'planned' | 'active', plannedDeparture: number | null): RuntimeJourney => ({
  id,
  deviceId: 1,
  routeId: 1,
  companyId: null,
  state,
  plannedDeparture,
  plannedArrival: null,
  origin: null,
  destination: null,
});

describe('currentJourney', () => {
  const early = 2 * hour;

  it('is the active journey whenever there is one', () => {
    expect(currentJourney([journey(1, 'planned', 0), journey(2, 'active', 10 * hour)], 0, early)?.id).toBe(2);
  });

  it('is the planned journey due first, counted from the early-start window before its departure', () => {
    const list = [journey(3, 'planned', 20 * hour), journey(4, 'planned', 10 * hour)];
    expect(currentJourney(list, 7 * hour, early)).toBeUndefined();
    expect(currentJourney(list, 8 * hour, early)?.id).toBe(4);
    expect(currentJourney(list, 19 * hour, early)?.id).toBe(4);
  });

  it('takes a planned journey without a departure at once, before any dated one; ties go to the older journey', () => {
    expect(currentJourney([journey(5, 'planned', 10 * hour), journey(6, 'planned', null)], 0, early)?.id).toBe(6);
    expect(currentJourney([journey(8, 'planned', hour), journey(7, 'planned', hour)], hour, early)?.id).toBe(7);
    expect(currentJourney([], 0, early)).toBeUndefined();
  });
});
