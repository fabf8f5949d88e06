import { describe, expect, it } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import type { ObservatoryDwell } from '@corridor/contracts/observatory';
import { i18n } from '../../i18n/i18n';
import { renderAt, serveApi } from '../../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../../test/contract-api';
import { ANALYST, page, PWANI } from '../../test/fixtures';
import { companiesList } from '../../ui/lookups';
import { observatoryDwell, observatoryMap, observatorySettings } from './observatory';
import ObservatoryScreen from './ObservatoryScreen';

/**
 * The corridor observatory against contract-shaped answers (the map falls back to its label: no
 * WebGL here): waiting times by place with withheld rows said; a period with no figures; a period
 * that ends before it begins refused by the form before anything is asked; the map or the figures
 * refused, each said once.
 */
const FROM = '2026-09-01T00:00:00.000Z';
const TO = '2026-11-24T00:00:00.000Z';
const period = { from: FROM, to: TO };
const dwell = (placeName: string, extra: Partial<ObservatoryDwell> = {}): ObservatoryDwell => ({
  periodStart: '2026-11-16',
  placeId: `fence-${placeName}`,
  placeName,
  placeKind: 'border_post',
  corridor: 'northern',
  direction: 'both',
  series: 'all',
  companyId: null,
  suppressed: false,
  visits: 40,
  trucks: 12,
  medianSeconds: 5400,
  p90Seconds: 14_400,
  thresholdSeconds: 7200,
  overThreshold: 10,
  overThresholdShare: 0.25,
  ...extra,
});
const report = (items: ObservatoryDwell[]) => ({
  period,
  interval: 'week',
  direction: 'both',
  companyId: null,
  minTrucks: 5,
  generatedAt: TO,
  items,
});
const overview = { period, companyId: null, minTrucks: 5, segments: [], places: [] };
const settings = answer(observatorySettings, {
  dwellThresholdMinutes: { border_post: 120, port: 240, inland_depot: 240, weighbridge: 30, checkpoint: 30 },
  minTrucks: 5,
  minStopMinutes: 30,
  updatedAt: null,
  updatedBy: null,
});
const companies = answer(companiesList, page([PWANI], 1000));
const open = () =>
  renderAt(<ObservatoryScreen />, {
    path: `/observatory?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}`,
    route: '/observatory',
    user: ANALYST,
  });

describe('corridor observatory', () => {
  it('shows waiting times by place, and says how many rows are withheld', async () => {
    serveApi(
      companies,
      settings,
      answer(observatoryMap, overview),
      answer(
        observatoryDwell,
        report([
          dwell('Malaba'),
          dwell('Busia', {
            suppressed: true,
            series: 'others',
            visits: null,
            trucks: null,
            medianSeconds: null,
            p90Seconds: null,
            overThreshold: null,
            overThresholdShare: null,
          }),
        ]),
      ),
    );
    open();
    const table = await screen.findByRole('table', { name: 'Waiting times by place' });
    const malaba = within(table).getByText('Malaba').closest('tr')!;
    expect(malaba.textContent).toContain('Border post');
    expect(malaba.textContent).toContain('All companies');
    expect(malaba.textContent).toContain('1 hr 30 min');
    expect(malaba.textContent).toContain('25 %');
    expect(
      screen.getByText('1 row withheld: fewer than 5 trucks of the other companies, so that none of them can be recognised.'),
    ).toBeTruthy();
  });

  it('says when the period has no figures, in English and in Swahili', async () => {
    serveApi(companies, settings, answer(observatoryMap, overview), answer(observatoryDwell, report([])));
    const view = open();
    expect(await screen.findByText('No figures for this period.')).toBeTruthy();
    expect(screen.getByText('Choose a longer period, or another corridor or direction.')).toBeTruthy();
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    expect(await screen.findByText(swahili('observatory.none'))).toBeTruthy();
  });

  it('refuses a period that ends before it begins before asking the server', async () => {
    const served = serveApi(companies, settings, answer(observatoryMap, overview), answer(observatoryDwell, report([])));
    open();
    await screen.findByText('No figures for this period.');
    const asked = served.asked.length;
    const form = screen.getByRole('form', { name: 'Observatory filters' });
    const to = within(form).getByLabelText(/^To/) as HTMLInputElement;
    fireEvent.change(to, { target: { value: '2026-08-01T00:00' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Show' }));
    expect(await within(form).findByText('The period must end after it begins.')).toBeTruthy();
    expect(to.getAttribute('aria-invalid')).toBe('true');
    expect(served.asked.slice(asked).filter((a) => a.includes('/observatory/'))).toEqual([]);
  });

  it('a map the server cannot give is said once, while the figures still show', async () => {
    serveApi(companies, settings, refuse(observatoryMap, 'UNAVAILABLE'), answer(observatoryDwell, report([dwell('Malaba')])));
    open();
    await screen.findByRole('table', { name: 'Waiting times by place' });
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });

  it('figures the caller may not see (403) are said once, in words', async () => {
    serveApi(companies, settings, answer(observatoryMap, overview), refuse(observatoryDwell, 'FORBIDDEN'));
    open();
    await saidOnce('You are not allowed to do this.');
  });

  it('a period the server refuses as too long is said once, not under the map and again under the figures', async () => {
    const tooLong = { maxPeriodDays: 400, periodDays: 500 };
    serveApi(
      companies,
      settings,
      refuse(observatoryMap, 'VALIDATION_FAILED', tooLong),
      refuse(observatoryDwell, 'VALIDATION_FAILED', tooLong),
    );
    open();
    await saidOnce('A report covers at most 400 days, and this period spans 500. Choose a shorter period.');
    expect(screen.getByText('The map shows a period the figures below can show: see below why this one cannot.')).toBeTruthy();
  });
});
