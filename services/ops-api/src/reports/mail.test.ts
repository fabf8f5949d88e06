import { describe, expect, it } from 'vitest';
import { AppError, createLogger } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { DEFAULT_PRESENTATION } from './formats/presentation';
import { reportMailer } from './mail';
import type { Report } from './service';

const report = {
  devices: [],
  period: { from: new Date(0), to: new Date(3_600_000) },
  batches: (async function* () {})(),
} as unknown as Report<never>;

describe('reports by mail', () => {
  it('answers 400 at once when the server has no mail channel (SMTP_URL)', async () => {
    const mailer = reportMailer({
      logger: createLogger('test', 'silent'),
      addressOf: async () => ({ email: null }),
      presentationFor: async () => DEFAULT_PRESENTATION,
    });
    const err = await mailer.queue(report, { name: 'trips', columns: [] }, undefined, testUsers.companyA).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'VALIDATION_FAILED', status: 400, message: expect.stringMatching(/SMTP_URL/) });
  });
});
