import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { usersEndpoints } from '@corridor/contracts/users';
import { endpoint } from '../api/endpoint';
import { i18n } from '../i18n/i18n';
import { renderAt, serveApi, userFixture } from '../test/api-stub';
import { answer, refuse, saidOnce, swahili } from '../test/contract-api';
import AccountScreen from './AccountScreen';

/**
 * The account's two-step sign-in against contract-shaped answers (the gateway's totp tests prove
 * what it checks): set up with a secret and a first code the contract checks before sending; a code
 * the server finds wrong said once under its field; turning it off with a code or the password,
 * a wrong password said as such (not "you are not allowed"); the server down said once.
 */
const generate = endpoint(usersEndpoints, 'users.totp.generate');
const confirm = endpoint(usersEndpoints, 'users.totp.confirm');
const disable = endpoint(usersEndpoints, 'users.totp.disable');
const AMANI = userFixture(40, 'Amani', { roles: ['company_user'], companyId: 101 });
const open = (user = AMANI) => renderAt(<AccountScreen />, { path: '/account', user });
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DP';

describe('account: two-step sign-in', () => {
  it('sets up with a new secret; the code is checked before sending, and a wrong one is said once under its field', async () => {
    const served = serveApi(
      answer(generate, SECRET),
      refuse(confirm, 'VALIDATION_FAILED', [
        { in: 'body', path: 'code', message: 'is not a current code of the pending secret', reason: 'codeWrong' },
      ]),
    );
    open();
    expect(screen.getByText(/^Signing in needs only your password/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    const form = await screen.findByRole('form', { name: 'Two-step sign-in' });
    expect(within(form).getByTestId('totp-secret').textContent).toBe('JBSW Y3DP EHPK 3PXP JBSW Y3DP');
    expect(within(form).getByRole('link', { name: 'Open in your authenticator app' }).getAttribute('href')).toContain(`secret=${SECRET}`);
    const code = within(form).getByLabelText(/^Six-digit code/);
    fireEvent.change(code, { target: { value: '12ab' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on two-step sign-in' }));
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(served.asked.filter((a) => a.startsWith('POST /api/users/totp/confirm'))).toEqual([]);
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn on two-step sign-in' }));
    await waitFor(() => expect(served.sent.get('POST /api/users/totp/confirm')).toEqual([{ code: '123456' }]));
    await saidOnce('The code is wrong or has expired. Enter the code your authenticator app shows now.');
    expect(document.body.textContent).not.toContain('pending secret');
  });

  it('a setup the server cannot start is said once, in English and in Swahili', async () => {
    serveApi(refuse(generate, 'UNAVAILABLE'));
    const view = open();
    fireEvent.click(screen.getByRole('button', { name: 'Set up two-step sign-in' }));
    await saidOnce('The server is busy or a part of it is down. Try again in a moment.');
    view.unmount();
    await i18n.changeLanguage('sw');
    open();
    fireEvent.click(screen.getByRole('button', { name: swahili('account.totpStart') }));
    await saidOnce(swahili('errors.unavailable'));
  });

  it('turns it off with the password; a wrong password is said as such, once, under the field', async () => {
    const served = serveApi(refuse(disable, 'FORBIDDEN', { field: 'password' }, 'The password is wrong'));
    open(userFixture(40, 'Amani', { roles: ['company_user'], companyId: 101, totpEnabled: true }));
    expect(screen.getByText('Two-step sign-in is on: signing in asks for a code from your authenticator app.')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Turn off two-step sign-in' });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn off two-step sign-in' }));
    expect(await within(form).findByText('Fill this in.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Use your password instead' }));
    const password = within(form).getByLabelText(/^Password/);
    fireEvent.change(password, { target: { value: 'not-my-password' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Turn off two-step sign-in' }));
    await saidOnce('The password is not right. Check it and try again.');
    expect(password.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByText('You are not allowed to do this.')).toBeNull();
    expect(served.sent.get('POST /api/users/totp/disable')).toEqual([{ password: 'not-my-password' }]);
  });
});
