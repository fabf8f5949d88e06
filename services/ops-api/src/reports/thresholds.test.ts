import { describe, expect, it } from 'vitest';
import { defaultReportSettings, ReportEnv, reportSettingsFrom } from './settings';
import { resolveThresholds } from './thresholds';

describe('report settings and thresholds', () => {
  it("default to Traccar's values", () => {
    expect(defaultReportSettings()).toEqual({
      maxPeriodDays: 92,
      trackRunsEveryMs: 300_000, // the reports' stored runs computed every 5 minutes (REPORT_TRACK_RUNS_S)
      trips: {
        newLogic: true,
        minDistance: 200,
        minDuration: 180_000,
        stopGap: 3_600_000,
        minimalTripDistance: 500,
        minimalTripDuration: 300_000,
        minimalParkingDuration: 300_000,
        minimalNoDataDuration: 3_600_000,
        useIgnition: false,
        ignoreOdometer: false,
        speedThreshold: 0.01,
        maxSpeed: 108,
      },
    });
  });

  it('read the environment (seconds) and refuse bad values', () => {
    const s = reportSettingsFrom(
      ReportEnv.parse({ REPORT_MAX_PERIOD_DAYS: '7', REPORT_TRIP_NEW_LOGIC: 'false', REPORT_TRIP_MIN_DURATION: '300' }),
    );
    expect(s.maxPeriodDays).toBe(7);
    expect(s.trips).toMatchObject({ newLogic: false, minDuration: 300_000 });
    expect(ReportEnv.safeParse({ REPORT_MAX_PERIOD_DAYS: '0' }).success).toBe(false);
    expect(ReportEnv.safeParse({ REPORT_TRIP_NEW_LOGIC: 'yes' }).success).toBe(false);
    expect(ReportEnv.safeParse({ REPORT_TRIP_MIN_DISTANCE: '-1' }).success).toBe(false);
    expect(reportSettingsFrom(ReportEnv.parse({ REPORT_PAGE_ROWS: '5000' })).pageRows).toBe(5000);
    expect(reportSettingsFrom(ReportEnv.parse({})).pageRows).toBeUndefined(); // the analytics store's default
    expect(ReportEnv.safeParse({ REPORT_PAGE_ROWS: '10' }).success).toBe(false);
    expect(reportSettingsFrom(ReportEnv.parse({ REPORT_TRACK_RUNS_S: '60' })).trackRunsEveryMs).toBe(60_000);
  });

  it('take the request first, then the device attribute of the Traccar key, then the setting; bad attributes are ignored', () => {
    const base = defaultReportSettings().trips;
    const device = {
      'report.trip.minDistance': 300,
      'report.trip.minDuration': '240',
      'report.trip.newLogic': 'false',
      'report.trip.stopGap': 'soon',
    };
    const t = resolveThresholds(base, device, { minDistance: 500 });
    expect(t).toMatchObject({ minDistance: 500, minDuration: 240_000, newLogic: false, stopGap: 3_600_000 });
    expect(resolveThresholds(base, device).minDistance).toBe(300);
    expect(resolveThresholds(base, {}, { newLogic: true, useIgnition: true, minimalParkingDuration: 60 })).toMatchObject({
      newLogic: true,
      useIgnition: true,
      minimalParkingDuration: 60_000,
    });
  });
});
