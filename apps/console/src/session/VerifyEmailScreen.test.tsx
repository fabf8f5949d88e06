import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { saidOnce, swahili } from '../test/contract-api';
import { MemoryRouter } from 'react-router';
import VerifyEmailScreen from './VerifyEmailScreen';

/**
 * The page the verification link opens, against a stand-in for the API (component tests run without
 * the services; the server side is proven in ops-api's notification-rules and notice-delivery tests).
 */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function open(url: string, answer: (token: string) => Response): string[] {
  const sent: string[] = [];
  vi.stubGlobal('fetch', async (path: string, init?: RequestInit) => {
    if (path !== '/api/settings/notification/email/verify' || init?.method !== 'POST')
      return json(404, { error: { code: 'NOT_FOUND', message: path } });
    const { token } = JSON.parse(init.body as string) as { token: string };
    sent.push(token);
    return answer(token);
  });
  render(
    <MemoryRouter initialEntries={[url]}>
      <VerifyEmailScreen />
    </MemoryRouter>,
  );
  return sent;
}

afterEach(async () => {
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});

describe('verify email page', () => {
  it('sends the token once and says where notices now go', async () => {
    const sent = open('/verify-email?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', () => json(200, { email: 'desk@athi.example' }));
    await screen.findByText('Thank you: notices will now be mailed to desk@athi.example.');
    expect(sent).toEqual(['abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG']);
  });

  it('says how to get a new link when the token is refused', async () => {
    open('/verify-email?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', () =>
      json(400, {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'body.token: unknown, expired or already used',
          details: [{ in: 'body', path: 'token', message: 'unknown, expired or already used' }],
        },
      }),
    );
    await screen.findByText(/This link is unknown, has expired or was already used/);
  });

  it('without a token, asks for the link from the email and sends nothing', async () => {
    const sent = open('/verify-email', () => json(200, { email: 'x@y.example' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'This page needs the link from the confirmation email. Open the link from the email again.',
    );
    expect(sent).toEqual([]);
  });

  it('a server that is down is said once, in words; in Swahili the refused link reads in Swahili', async () => {
    open('/verify-email?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', () =>
      json(503, { error: { code: 'UNAVAILABLE', message: 'body.token: postgres is down' } }),
    );
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
    cleanup();
    await i18n.changeLanguage('sw');
    open('/verify-email?token=abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG', () =>
      json(400, { error: { code: 'VALIDATION_FAILED', message: 'x', details: [{ in: 'body', path: 'token', message: 'unknown' }] } }),
    );
    await saidOnce(swahili('verifyEmail.failed'));
  });
});
