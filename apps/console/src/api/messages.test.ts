import { afterAll, describe, expect, it } from 'vitest';
import { noticeWord } from '@corridor/contracts/notice-text';
import { i18n } from '../i18n/i18n';
import { explainError } from './messages';
import { ApiError } from './errors';

/**
 * The API's refusals as sentences: the details are the server's (packages/platform app.ts sends
 * zod's issue code and limits with each path; ops-api's reports their period), the sentences the
 * console's, in English and Swahili, never the server's English or a `body.*` path.
 */
const en = i18n.getFixedT('en');
const sw = i18n.getFixedT('sw');
const shortReason = new ApiError(400, 'VALIDATION_FAILED', 'body.reason: Too small: expected string to have >=5 characters', [
  {
    in: 'body',
    path: 'reason',
    message: 'Too small: expected string to have >=5 characters',
    code: 'too_small',
    minimum: 5,
    origin: 'string',
    inclusive: true,
  },
]);

afterAll(() => void i18n.changeLanguage('en'));

describe('explainError', () => {
  it("words a field problem with the form's label, in the reader's language, never the path or the server's English", () => {
    const e = explainError(en, shortReason, { reason: 'Reason for rejection' });
    expect(e.summary).toBe('Reason for rejection: Enter at least 5 characters.');
    expect(e.problems).toEqual([{ path: 'reason', label: 'Reason for rejection', problem: 'Enter at least 5 characters.' }]);
    const s = explainError(sw, shortReason, { reason: 'Sababu ya kukataa' });
    expect(s.summary).toMatch(/^Sababu ya kukataa: /);
    expect(s.summary).not.toMatch(/body|Too small|reason/);
    expect(s.summary).not.toBe(e.summary);
  });

  it('without a label, names the field by a word for it, not by its API name', () => {
    const dup = new ApiError(409, 'CONFLICT', 'uniqueId already registered', { field: 'uniqueId' });
    expect(explainError(en, dup).summary).toBe('Device identifier: this value is already in use, or cannot be used here.');
    const nested = new ApiError(400, 'VALIDATION_FAILED', 'x', [
      { path: 'body.attributes.speedLimit', code: 'too_small', minimum: 0, origin: 'number' },
    ]);
    const n = explainError(en, nested);
    expect(n.problems[0]).toMatchObject({ path: 'attributes.speedLimit', label: 'Speed limit', problem: 'Enter 0 or more.' });
    const unknown = new ApiError(400, 'VALIDATION_FAILED', 'x', [
      { path: 'body.zzzQux', code: 'invalid_type', message: 'Invalid input: expected string, received undefined' },
    ]);
    expect(explainError(en, unknown).summary).toBe('One of the values: Fill this in.');
  });

  it('says each field once (zod may report several issues of one field)', () => {
    const twice = new ApiError(400, 'VALIDATION_FAILED', 'x', [
      { path: 'name', code: 'too_small', minimum: 2, origin: 'string' },
      { path: 'name', code: 'invalid_format', format: 'regex' },
    ]);
    expect(explainError(en, twice).problems).toHaveLength(1);
  });

  it("reads a report's period refusal from its details, not its ISO times", () => {
    const long = new ApiError(400, 'VALIDATION_FAILED', 'The period from 2026-08-30T14:19:00.000Z … a report covers at most 92 days', {
      fields: ['from', 'to'],
      maxPeriodDays: 92,
      periodDays: 120,
    });
    expect(explainError(en, long).summary).toBe('A report covers at most 92 days, and this period spans 120. Choose a shorter period.');
    expect(explainError(sw, long).summary).toMatch(/92/);
    expect(explainError(sw, long).summary).not.toMatch(/2026|covers/);
  });

  it('words a refused move with the states in words, and the other codes by code', () => {
    const moved = new ApiError(409, 'INVALID_TRANSITION', 'x', { current: 'approved', allowed: ['revoked'] });
    expect(explainError(en, moved).summary).toMatch(/^This cannot be done now: it is Approved\. What can be done: Revoked\.$/);
    // a complaint's states as its notices word them (contracts notice-text), in the reader's language
    const complaintMove = new ApiError(409, 'INVALID_TRANSITION', 'x', { current: 'dismissed', allowed: ['open', 'closed'] });
    expect(explainError(en, complaintMove).summary).toContain('Dismissed');
    expect(explainError(en, complaintMove).summary).toContain('Open, Closed');
    expect(explainError(sw, complaintMove).summary).toContain(noticeWord('complaintStatus', 'dismissed', 'sw'));
    expect(explainError(sw, complaintMove).summary).toContain('Wazi, Limefungwa');
    expect(
      explainError(
        en,
        new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'declared as application/pdf but its content does not match', {
          declared: 'application/pdf',
        }),
      ).summary,
    ).toBe('The file does not contain what its type says (application/pdf). Choose the file again, or another one.');
    expect(explainError(en, new ApiError(429, 'RATE_LIMITED', 'x', { retryAfterSeconds: 1.2 })).summary).toBe(
      'Too many attempts. Try again in 2 seconds.',
    );
    expect(explainError(en, new ApiError(503, 'UNAVAILABLE', 'kafka down')).summary).toMatch(/busy or a part of it is down/);
    expect(explainError(en, new ApiError(502, 'HTTP_502', 'x')).summary).toMatch(/server failed/);
    expect(explainError(en, new TypeError('Failed to fetch')).summary).toMatch(/could not be reached/);
    expect(explainError(en, null)).toEqual({ summary: '', problems: [] });
  });

  it('has every sentence in Swahili too (no English key left behind)', () => {
    const codes = [
      'UNAUTHENTICATED',
      'FORBIDDEN',
      'NOT_FOUND',
      'CONFLICT',
      'PAYLOAD_TOO_LARGE',
      'UNPROCESSABLE',
      'UNKNOWN_DEVICE',
      'CONTRACT_DRIFT',
      'INTERNAL',
      'UNAVAILABLE',
    ];
    for (const code of codes) {
      const e = new ApiError(400, code, 'english');
      const inSw = explainError(sw, e).summary;
      expect(inSw, code).not.toBe(explainError(en, e).summary);
      expect(inSw, code).not.toMatch(/^errors\./);
    }
  });
});
