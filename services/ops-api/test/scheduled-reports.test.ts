import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Calendar, Device, ReportTrip, ScheduledReport, ScheduledReportRun } from '@corridor/contracts';
import { createGeocoder, GeocoderEnv, insertPositions } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { eq } from 'drizzle-orm';
import { scheduledReportRuns, scheduledReports } from '../src/db/schema';
import { devicesRepository } from '../src/devices/repository';
import { mailChannel } from '../src/notification-rules/mail-channel';
import { buildTrack, trackPositions } from '../src/reports/synthetic-track';
import { reportsService } from '../src/reports/service';
import { defaultReportSettings } from '../src/reports/settings';
import { scheduledReportRunner } from '../src/scheduled-reports/runner';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { startSmtpServer } from './smtp-server';
import { expect400, expectError } from './tracking-expect';
import { eventually } from '@corridor/platform/testing/eventually';

/**
 * Scheduled reports: CRUD with every id checked against the caller's company; a report runs once
 * per ended event of its calendar (also with two instances checking at once), its file is mailed
 * to the recipients (a local SMTP server started here) and each run is kept with its status.
 */
interface Mail {
  to: string[];
  raw: string;
}
const mails: Mail[] = [];
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let smtpUrl = '';
let h: Harness;
let truck: Device;
let calendar: Calendar;

const DAY = 86_400_000;
// the day before yesterday (UTC) has a working day of fixes; checks happen at 22:00 on the days after
const DAY0 = Math.floor(Date.now() / DAY) * DAY - 2 * DAY;
const checkAt = (day: number) => DAY0 + day * DAY + 22 * 3_600_000;
const A = dispatcherOf(101);
const B = dispatcherOf(202);

/** A daily event 06:00–18:00 UTC from a week before DAY0. */
function dailyCalendar(hours = 12): string {
  const start = new Date(DAY0 - 7 * DAY + 6 * 3_600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  const end = new Date(DAY0 - 7 * DAY + (6 + hours) * 3_600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d+/, '');
  return Buffer.from(
    `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:shift-${hours}\r\nDTSTART:${start}\r\n` +
      `DTEND:${end}\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n`,
  ).toString('base64');
}

/** The attachment of a mail, decoded (nodemailer writes it base64). */
function attachment(raw: string): { filename: string; contentType: string; content: Buffer } {
  const part = raw.split(/\r?\n--/).find((p) => /Content-Disposition: attachment/i.test(p));
  if (!part) throw new Error('no attachment');
  const [head, ...body] = part.split(/\r?\n\r?\n/);
  return {
    filename: /filename=("?)([^"\r\n;]+)\1/i.exec(head!)![2]!,
    contentType: /Content-Type: ([^;\r\n]+)/i.exec(head!)![1]!,
    content: Buffer.from(body.join('').replace(/\s+/g, ''), 'base64'),
  };
}

async function create(body: Record<string, unknown>, by = A): Promise<ScheduledReport> {
  const res = await h.call(by, 'POST', '/api/reports', body);
  expect(res.statusCode, res.body).toBe(200);
  const r = res.json<ScheduledReport>();
  // created a week before DAY0, so the events since then are due
  await h.adapters.db.orm
    .update(scheduledReports)
    .set({ createdAt: new Date(DAY0 - 7 * DAY) })
    .where(eq(scheduledReports.id, r.id));
  return r;
}
const runsOf = async (id: number, by = A) => (await h.call(by, 'GET', `/api/reports/${id}/runs`)).json<ScheduledReportRun[]>();

beforeAll(async () => {
  smtp = await startSmtpServer((to, raw) => mails.push({ to: [...to].sort(), raw }));
  smtpUrl = smtp.url;
  h = await startHarness({
    notificationRules: { ...(await import('../src/notification-rules/settings')).defaultNotificationSettings(), smtpUrl },
  });
  truck = (
    await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'KCB 100S', uniqueId: '866000000100001', companyId: 101 })
  ).json<Device>();
  const res = await h.call(A, 'POST', '/api/calendars', { name: 'Day shift', data: dailyCalendar() });
  expect(res.statusCode, res.body).toBe(200);
  calendar = res.json<Calendar>();
  // a working day on DAY0 and on the day after: two trips each
  for (const day of [0, 1]) {
    const fixes = buildTrack({
      start: new Date(DAY0 + day * DAY + 7 * 3_600_000),
      origin: [36.82, -1.29],
      everySeconds: 60,
      segments: [
        { kind: 'drive', seconds: 3600, kmh: 50 },
        { kind: 'stop', seconds: 3600 },
        { kind: 'drive', seconds: 3600, kmh: 50, bearing: 270 },
        { kind: 'stop', seconds: 3600 },
      ],
    });
    await insertPositions(h.adapters.analytics)(trackPositions(truck.id, truck.uniqueId, fixes));
  }
}, 120_000);
afterEach(async () => {
  await h.adapters.db.orm.delete(scheduledReports); // each test's reports are its own (a failed one leaves none behind)
});
afterAll(async () => {
  await h?.close();
  await smtp?.close();
});

describe('scheduled reports: the resource', () => {
  it('is created, read, listed, replaced and deleted by its company (Traccar /reports)', async () => {
    const r = await create({
      type: 'stops',
      calendarId: calendar.id,
      deviceIds: [truck.id],
      recipients: ['ops@a.test'],
      description: 'Daily stops',
    });
    expect(r).toMatchObject({
      type: 'stops',
      calendarId: calendar.id,
      deviceIds: [truck.id],
      groupIds: [],
      format: 'xlsx',
      companyId: 101,
    });
    expect((await h.call(A, 'GET', `/api/reports/${r.id}`)).json()).toEqual(r);
    expect((await h.call(A, 'GET', '/api/reports?keyword=daily')).json<ScheduledReport[]>().map((x) => x.id)).toContain(r.id);
    const put = await h.call(A, 'PUT', `/api/reports/${r.id}`, { ...r, format: 'csv' });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<ScheduledReport>().format).toBe('csv');
    expect((await h.call(A, 'DELETE', `/api/reports/${r.id}`)).statusCode).toBe(204);
    expect((await h.call(A, 'GET', `/api/reports/${r.id}`)).statusCode).toBe(404);
  });

  it("refuses another company's calendar, device and group, and hides its reports and runs", async () => {
    const r = await create({ type: 'trips', calendarId: calendar.id, deviceIds: [truck.id], recipients: ['ops@a.test'] });
    const ownCalendar = (await h.call(B, 'POST', '/api/calendars', { name: 'B shift', data: dailyCalendar() })).json<Calendar>();
    const group = (await h.call(A, 'POST', '/api/groups', { name: 'A fleet' })).json<{ id: number }>();
    for (const body of [
      { type: 'trips', calendarId: calendar.id, deviceIds: [], groupIds: [], recipients: ['b@b.test'] }, // A's calendar
      { type: 'trips', calendarId: ownCalendar.id, deviceIds: [truck.id], recipients: ['b@b.test'] }, // A's device
      { type: 'trips', calendarId: ownCalendar.id, groupIds: [group.id], recipients: ['b@b.test'] }, // A's group
    ]) {
      const res = await h.call(B, 'POST', '/api/reports', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(404);
    }
    for (const url of [`/api/reports/${r.id}`, `/api/reports/${r.id}/runs`])
      expect((await h.call(B, 'GET', url)).statusCode, url).toBe(404);
    expect(
      (await h.call(B, 'PUT', `/api/reports/${r.id}`, { ...r, calendarId: ownCalendar.id, deviceIds: [], groupIds: [] })).statusCode,
    ).toBe(404);
    expect((await h.call(B, 'DELETE', `/api/reports/${r.id}`)).statusCode).toBe(404);
    expect((await h.call(B, 'GET', '/api/reports')).json<ScheduledReport[]>().map((x) => x.id)).not.toContain(r.id);
    // saved without devices (as Traccar's web app saves, then links): kept, and it runs nothing until linked
    const unlinked = await h.call(A, 'POST', '/api/reports', { type: 'trips', calendarId: calendar.id, recipients: ['a@a.test'] });
    expect(unlinked.json()).toMatchObject({ deviceIds: [], groupIds: [] });
    expect400(
      await h.call(A, 'POST', '/api/reports', {
        type: 'trips',
        calendarId: calendar.id,
        deviceIds: [truck.id],
        recipients: ['not an address'],
      }),
      'recipients',
    );
    await h.call(A, 'DELETE', `/api/reports/${r.id}`);
  });
});

describe('scheduled reports: runs', () => {
  it('run once per ended calendar event, mail the file to the recipients and keep the run', async () => {
    const r = await create({
      type: 'trips',
      calendarId: calendar.id,
      deviceIds: [truck.id],
      recipients: ['ops@a.test', 'boss@a.test'],
      format: 'csv',
    });
    const runner = h.svc.tracking.scheduledReports;
    mails.length = 0;
    expect(await runner.check(checkAt(0))).toBe(1); // DAY0's event: the only one that ended in the day before the check
    const sent = mails.filter((m) => m.raw.includes(`trips-${new Date(DAY0).toISOString().slice(0, 10)}`));
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toEqual(['boss@a.test', 'ops@a.test']);
    const file = attachment(sent[0]!.raw);
    expect(file.contentType).toBe('text/csv');
    // the file is the trips report of the event's period, as GET /reports/trips answers it
    const from = new Date(DAY0 + 6 * 3_600_000).toISOString();
    const to = new Date(DAY0 + 18 * 3_600_000).toISOString();
    const trips = (await h.call(A, 'GET', `/api/reports/trips?deviceId=${truck.id}&from=${from}&to=${to}`)).json<ReportTrip[]>();
    expect(trips).toHaveLength(2);
    const csv = (await h.call(A, 'GET', `/api/reports/trips?deviceId=${truck.id}&from=${from}&to=${to}&format=csv`)).body;
    expect(file.content.toString('utf8')).toBe(csv);

    const runs = await runsOf(r.id);
    const run = runs.find((x) => x.from === from)!;
    expect(run).toMatchObject({ reportId: r.id, from, to, status: 'sent', items: 2, error: null });
    expect(run.finishedAt).not.toBeNull();

    // checked again: nothing is due twice
    const before = mails.length;
    expect(await runner.check(checkAt(0))).toBe(0);
    expect(mails.length).toBe(before);
    expect((await runsOf(r.id)).length).toBe(runs.length);
    await h.call(A, 'DELETE', `/api/reports/${r.id}`);
  });

  it('run once when two instances check at the same time', async () => {
    const r = await create({ type: 'trips', calendarId: calendar.id, deviceIds: [truck.id], recipients: ['twice@a.test'] });
    const other = scheduledReportRunner({
      db: h.adapters.db.orm,
      instance: 'other',
      reports: reportsService({
        analytics: h.adapters.analytics,
        db: h.adapters.db.orm,
        devices: devicesRepository(h.adapters.db.orm),
        settings: defaultReportSettings(),
        geocoder: createGeocoder(GeocoderEnv.parse({})),
      }),
      mail: mailChannel(smtpUrl, 'Corridor <reports@corridor.test>'),
      logger: h.adapters.logger,
    });
    mails.length = 0;
    const [mine, theirs] = await Promise.all([h.svc.tracking.scheduledReports.check(checkAt(1)), other.check(checkAt(1))]);
    const runs = await runsOf(r.id);
    expect(mine + theirs).toBe(runs.length);
    expect(new Set(runs.map((x) => x.from)).size).toBe(runs.length);
    expect(mails.filter((m) => m.to.includes('twice@a.test'))).toHaveLength(runs.length);
    const day1 = runs.find((x) => x.from === new Date(DAY0 + DAY + 6 * 3_600_000).toISOString());
    expect(day1).toMatchObject({ status: 'sent', items: 2 });
    await h.call(A, 'DELETE', `/api/reports/${r.id}`);
  });

  it('keep a failed run with its reason, and do not repeat it', async () => {
    // a 100-day event: longer than a report may cover (92 days)
    const long = (await h.call(A, 'POST', '/api/calendars', { name: 'Long', data: dailyCalendar(100 * 24) })).json<Calendar>();
    const r = await create({ type: 'summary', calendarId: long.id, deviceIds: [truck.id], recipients: ['ops@a.test'] });
    await h.adapters.db.orm
      .update(scheduledReports)
      .set({ createdAt: new Date(DAY0 - 60 * DAY) })
      .where(eq(scheduledReports.id, r.id));
    const at = DAY0 - 7 * DAY + (6 + 100 * 24) * 3_600_000 + 60_000; // just after the first occurrence ended
    expect(await h.svc.tracking.scheduledReports.check(at)).toBe(1);
    const [run] = await runsOf(r.id);
    expect(run).toMatchObject({ status: 'failed', items: null });
    expect(run!.error).toMatch(/at most 92 days/);
    expect((await runsOf(r.id, A)).filter((x) => x.status === 'failed')).toHaveLength(1);
    expect((await h.call(A, 'GET', `/api/reports/${r.id}/runs?status=sent`)).json()).toEqual([]);
    expect(await h.svc.tracking.scheduledReports.check(at)).toBe(0);
  });

  it('take again a run whose instance was killed mid-run (left running past its lease): it finishes, or fails saying why; never stuck', async () => {
    const r = await create({ type: 'trips', calendarId: calendar.id, deviceIds: [truck.id], recipients: ['crash@a.test'], format: 'csv' });
    const period = (day: number) => ({
      periodStart: new Date(DAY0 + day * DAY + 6 * 3_600_000),
      periodEnd: new Date(DAY0 + day * DAY + 18 * 3_600_000),
    });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    // as a killed instance leaves them: DAY0's run claimed an hour ago, never finished; the day after's
    // claimed just now by an instance still at work; and an older one that has killed its instance three times
    await h.adapters.db.orm.insert(scheduledReportRuns).values([
      { reportId: r.id, ...period(0), status: 'running', instance: 'killed-1', startedAt: anHourAgo },
      { reportId: r.id, ...period(1), status: 'running', instance: 'busy-2' },
      { reportId: r.id, ...period(-1), status: 'running', instance: 'killed-3', startedAt: anHourAgo, attempts: 3 },
    ]);
    mails.length = 0;
    expect(await h.svc.tracking.scheduledReports.check(checkAt(1))).toBe(2);
    const runs = await runsOf(r.id);
    const at = (day: number) => runs.find((x) => x.from === period(day).periodStart.toISOString());
    expect(at(0)).toMatchObject({ status: 'sent', items: 2, error: null, attempts: 2 });
    expect(mails.filter((m) => m.to.includes('crash@a.test'))).toHaveLength(1);
    expect(attachment(mails.find((m) => m.to.includes('crash@a.test'))!.raw).content.toString('utf8')).toBe(
      (
        await h.call(
          A,
          'GET',
          `/api/reports/trips?deviceId=${truck.id}&from=${period(0).periodStart.toISOString()}&to=${period(0).periodEnd.toISOString()}&format=csv`,
        )
      ).body,
    );
    expect(at(-1)).toMatchObject({ status: 'failed', items: null, attempts: 4 });
    expect(at(-1)!.error).toMatch(/abandoned: started 3 times/);
    expect(at(1)).toMatchObject({ status: 'running', attempts: 1 }); // within its lease: left to its instance
    expect(runs).toHaveLength(3);

    // the busy instance stops too, its run now past the lease: taken again and sent
    await h.adapters.db.orm.update(scheduledReportRuns).set({ startedAt: anHourAgo }).where(eq(scheduledReportRuns.instance, 'busy-2'));
    expect(await h.svc.tracking.scheduledReports.check(checkAt(1))).toBe(1);
    expect((await runsOf(r.id)).find((x) => x.from === period(1).periodStart.toISOString())).toMatchObject({ status: 'sent', attempts: 2 });
    expect(await h.svc.tracking.scheduledReports.check(checkAt(1))).toBe(0);
  });
});

describe('reports by mail (Traccar /reports/{type}/mail and mail=true)', () => {
  const from = () => new Date(DAY0 + 6 * 3_600_000).toISOString();
  const to = () => new Date(DAY0 + 18 * 3_600_000).toISOString();
  const mailTo = (address: string) => mails.filter((m) => m.to.includes(address));
  it('answers 204 and mails the report to the caller: csv as asked, else xlsx; a foreign device or a too long period is refused at once', async () => {
    mails.length = 0;
    const q = `deviceId=${truck.id}&from=${from()}&to=${to()}`;
    const res = await h.call(A, 'GET', `/api/reports/trips/mail?${q}&format=csv`);
    expect(res.statusCode, res.body).toBe(204);
    await eventually('the trips report by mail', () => mailTo(A.email).length === 1);
    const file = attachment(mailTo(A.email)[0]!.raw);
    expect(file.contentType).toBe('text/csv');
    expect(file.content.toString('utf8')).toBe((await h.call(A, 'GET', `/api/reports/trips?${q}&format=csv`)).body);

    const flagged = await h.call(A, 'GET', `/api/reports/summary?${q}&mail=true`);
    expect(flagged.statusCode, flagged.body).toBe(204);
    await eventually('the summary report by mail', () => mailTo(A.email).length === 2);
    const xlsx = mailTo(A.email)[1]!.raw.replace(/\r?\n[ \t]+/g, ' '); // headers unfolded
    expect(xlsx).toMatch(/filename="?summary-[0-9-]+\.xlsx/);
    expect(xlsx).toMatch(/Content-Type: application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet/);

    expect((await h.call(B, 'GET', `/api/reports/stops/mail?${q}`)).statusCode).toBe(404);
    expectError(
      await h.call(A, 'GET', `/api/reports/route/mail?deviceId=${truck.id}&from=${new Date(DAY0 - 120 * DAY).toISOString()}&to=${to()}`),
      400,
      'VALIDATION_FAILED',
    );
    expect400(await h.call(A, 'GET', `/api/reports/events/mail?${q}&format=json`), 'format');
    expect(mailTo(A.email)).toHaveLength(2);
  });
});
