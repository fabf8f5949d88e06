import { describe, expect, it } from 'vitest';
import { deliveredNotificationTypes, type Notification } from './notifications';
import { ComplaintCategory, ComplaintStatus } from './complaints';
import { SanctionType } from './disciplinary';
import { noticeLanguage, noticeText, noticeWord } from './notice-text';

const stored = { title: 'stored title', message: 'stored message' };
const notice = (type: Notification['type'], attributes: Record<string, unknown>) => ({ type, ...stored, attributes });
/** Parameters as ops-api stores them for each delivered type (names, not ids). */
const params: Record<(typeof deliveredNotificationTypes)[number], Record<string, unknown>> = {
  certificateApplied: { number: 'SUC-2026-000042', companyName: 'Pwani Freight Movers Ltd', idfNumber: '24NBOIM000000001' },
  certificateSubmitted: { number: 'SUC-2026-000042', companyName: 'Pwani Freight Movers Ltd', idfNumber: '24NBOIM000000001' },
  certificateApproved: { number: 'SUC-2026-000042' },
  certificateRejected: { number: 'SUC-2026-000042', reason: 'The invoice value differs' },
  complaintFiled: { complaintTitle: 'Late delivery at Malaba', category: 'delay' },
  complaintStatusChanged: { complaintTitle: 'Late delivery at Malaba', to: 'under_review' },
  sanctionRecorded: {
    sanctionType: 'fine',
    subjectType: 'company',
    subjectRef: '101',
    subjectName: 'Pwani Freight Movers Ltd',
    reason: 'Late',
  },
};

describe('noticeText: the wording of delivered notices, shared by the console and ops-api', () => {
  it('words every delivered type from its parameters in English and in Swahili, differently, never the stored text', () => {
    for (const type of deliveredNotificationTypes) {
      const en = noticeText(notice(type, params[type]), 'en');
      const sw = noticeText(notice(type, params[type]), 'sw');
      expect(en.title, type).not.toBe(stored.title);
      expect(sw.title, type).not.toBe(en.title);
      expect(`${en.title} ${en.message} ${sw.title} ${sw.message}`, type).not.toMatch(/\{\{|undefined|company 101/);
    }
  });

  it('names things with their names and their words', () => {
    expect(noticeText(notice('sanctionRecorded', params.sanctionRecorded), 'sw')).toEqual({
      title: 'Adhabu imerekodiwa: Faini',
      message: 'Pwani Freight Movers Ltd: Late',
    });
    expect(noticeText(notice('certificateApplied', params.certificateApplied), 'en')).toEqual({
      title: 'Certificate SUC-2026-000042 applied for',
      message: 'Pwani Freight Movers Ltd: IDF 24NBOIM000000001',
    });
    expect(noticeText(notice('complaintStatusChanged', params.complaintStatusChanged), 'en').title).toBe(
      'Your complaint is now: Under review',
    );
    expect(noticeText(notice('complaintFiled', params.complaintFiled), 'sw').message).toBe('Kuchelewa: Late delivery at Malaba');
    expect(noticeText(notice('certificateRejected', params.certificateRejected), 'sw').message).toBe('Sababu: The invoice value differs');
  });

  it('keeps the stored text without the parameters, and for types worded elsewhere', () => {
    expect(noticeText(notice('sanctionRecorded', {}), 'sw')).toEqual(stored);
    expect(noticeText(notice('announcement', { number: 'x' }), 'sw')).toEqual(stored);
  });

  it('words every sanction, complaint category and complaint state in both languages, as the notices name them (the console reads the same)', () => {
    const tables = [
      ['sanctions', SanctionType.options],
      ['categories', ComplaintCategory.options],
      ['complaintStatus', ComplaintStatus.options],
    ] as const;
    for (const [table, values] of tables)
      for (const value of values) {
        const [en, sw] = [noticeWord(table, value, 'en'), noticeWord(table, value, 'sw-TZ')];
        expect(en, `${table}.${value}`).not.toBe(value);
        expect(sw, `${table}.${value}`).not.toBe(en);
      }
    expect(noticeWord('sanctions', 'suspension', 'sw')).toBe('Kusimamishwa');
    expect(noticeText(notice('sanctionRecorded', params.sanctionRecorded), 'en').title).toContain(noticeWord('sanctions', 'fine', 'en'));
    expect(noticeWord('categories', 'added_since', 'sw')).toBe('added_since');
  });

  it('reads sw and its regional tags as Swahili, anything else (none included) as English', () => {
    expect(['sw', 'sw-TZ', 'SW-ke'].map(noticeLanguage)).toEqual(['sw', 'sw', 'sw']);
    expect(['en', 'fr', '', null, undefined].map(noticeLanguage)).toEqual(['en', 'en', 'en', 'en', 'en']);
  });
});
