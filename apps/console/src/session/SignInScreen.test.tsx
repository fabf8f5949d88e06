import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { apiError, renderAt, serveApi, type Handler } from '../test/api-stub';
import { saidOnce, swahili } from '../test/contract-api';
import type { SignInRefusal } from '@corridor/contracts/session';
import SignInScreen from './SignInScreen';

/**
 * The sign-in form against a stand-in for the API (the gateway's session tests prove the server):
 * the contract's LoginInput refuses empty fields before anything is sent; a wrong password is one
 * sentence; a second factor asks for its code, which the form then requires; a wrong or used code
 * is said under the code by the refusal's reason (contracts SignInRefusal), in English and Swahili;
 * a lock is said too.
 */
const sessions: { body: unknown }[] = [];
const login =
  (reply: (body: { code?: string }) => Response): Handler =>
  ({ method, url, body }) => {
    if (method !== 'POST' || url.pathname !== '/api/session') return undefined;
    sessions.push({ body });
    return reply(body as { code?: string });
  };
const refusal = (reason: SignInRefusal) => apiError(401, 'UNAUTHENTICATED', 'body.code: raw server text', { reason });
const totp = () => {
  const res = apiError(401, 'UNAUTHENTICATED', 'code required', { totp: 'required', reason: 'codeRequired' });
  res.headers.set('www-authenticate', 'TOTP');
  return res;
};

afterEach(async () => {
  vi.unstubAllGlobals();
  sessions.length = 0;
  await i18n.changeLanguage('en');
});

describe('sign in', () => {
  it('refuses empty fields before sending; a wrong password is one sentence', async () => {
    serveApi(login(() => refusal('credentialsWrong')));
    renderAt(<SignInScreen />, { path: '/sign-in' });
    fireEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByLabelText(/^Email or login/).getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByLabelText(/^Password/).getAttribute('aria-invalid')).toBe('true');
    expect(sessions).toEqual([]);
    fireEvent.change(screen.getByLabelText(/^Email or login/), { target: { value: 'amina@corridor.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'not-it' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('The email or password is not right.');
    expect(sessions).toEqual([{ body: { email: 'amina@corridor.test', password: 'not-it' } }]);
  });

  it("asks for the second factor's code when the account has one, and requires it", async () => {
    serveApi(login((b) => (b.code === '012345' ? apiError(429, 'RATE_LIMITED', 'later') : totp())));
    renderAt(<SignInScreen />, { path: '/sign-in' });
    fireEvent.change(await screen.findByLabelText(/^Email or login/), { target: { value: 'amina@corridor.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'the-right-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const code = await screen.findByLabelText(/^Six-digit code/);
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(sessions).toHaveLength(1);
    fireEvent.change(code, { target: { value: '012345' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many failed attempts. Wait a few minutes, then try again.');
    expect(sessions[1]).toEqual({ body: { email: 'amina@corridor.test', password: 'the-right-one', code: '012345' } });
  });

  it('says a wrong code, and a code used already, under the code field by their reason, in English and Swahili', async () => {
    const enter = async (value: string, verify: string) => {
      const code = await screen.findByLabelText(new RegExp(`^(Six-digit code|${swahili('signIn.code')})`));
      fireEvent.change(code, { target: { value } });
      fireEvent.click(screen.getByRole('button', { name: verify }));
      return code;
    };
    const signInFirst = async (email: string, password: string, submit: string) => {
      fireEvent.change(await screen.findByLabelText(new RegExp(`^${email}`)), { target: { value: 'amina@corridor.test' } });
      fireEvent.change(screen.getByLabelText(new RegExp(`^${password}`)), { target: { value: 'the-right-one' } });
      fireEvent.click(screen.getByRole('button', { name: submit }));
    };
    serveApi(login((b) => (b.code === undefined ? totp() : refusal(b.code === '111111' ? 'codeWrong' : 'codeUsed'))));
    const view = renderAt(<SignInScreen />, { path: '/sign-in' });
    await signInFirst('Email or login', 'Password', 'Sign in');
    const code = await enter('111111', 'Verify');
    const wrong = 'The code is wrong or has expired. Enter the code your authenticator app shows now.';
    await saidOnce(wrong);
    // under the field, named by it for screen readers, and nothing in the form's alert
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    const describedBy = (code.getAttribute('aria-describedby') ?? '').split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain(wrong);
    await enter('222222', 'Verify');
    await saidOnce('This code was used already. Wait for the next code, then enter it.');
    expect(sessions.map((s) => (s.body as { code?: string }).code)).toEqual([undefined, '111111', '222222']);
    view.unmount();

    await i18n.changeLanguage('sw');
    renderAt(<SignInScreen />, { path: '/sign-in' });
    await signInFirst(swahili('signIn.email'), swahili('signIn.password'), swahili('signIn.submit'));
    await enter('111111', swahili('signIn.verify'));
    await saidOnce(swahili('errors.signIn.codeWrong'));
    await enter('222222', swahili('signIn.verify'));
    await saidOnce(swahili('errors.signIn.codeUsed'));
  });

  it('in Swahili, a wrong password reads in Swahili; a server that is down is said once', async () => {
    serveApi(login(() => refusal('credentialsWrong')));
    await i18n.changeLanguage('sw');
    const view = renderAt(<SignInScreen />, { path: '/sign-in' });
    fireEvent.change(await screen.findByLabelText(new RegExp(`^${swahili('signIn.email')}`)), { target: { value: 'amina@corridor.test' } });
    fireEvent.change(screen.getByLabelText(new RegExp(`^${swahili('signIn.password')}`)), { target: { value: 'not-it' } });
    fireEvent.click(screen.getByRole('button', { name: swahili('signIn.submit') }));
    await saidOnce(swahili('errors.signIn.credentialsWrong'));
    view.unmount();
    await i18n.changeLanguage('en');
    serveApi(login(() => apiError(503, 'UNAVAILABLE', 'body.password: postgres is down')));
    renderAt(<SignInScreen />, { path: '/sign-in' });
    fireEvent.change(await screen.findByLabelText(/^Email or login/), { target: { value: 'amina@corridor.test' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'the-right-one' } });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
  });
});
