import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { i18n } from '../i18n/i18n';
import { renderAt } from '../test/api-stub';
import { swahili } from '../test/contract-api';
import NotFoundScreen from './NotFoundScreen';

/** An address that names no screen: a heading that says so (the route focus moves to it), a way back to the start, in English and Swahili. */
describe('not found', () => {
  it('says the page is not there in a heading, with a link to the start page, in English and in Swahili', async () => {
    const view = renderAt(<NotFoundScreen />, { path: '/no-such-page', route: '*' });
    expect(screen.getByRole('heading', { level: 1, name: 'Page not found' })).toBeTruthy();
    expect(screen.getByText('The address may be mistyped, or the page has moved.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the start page' }).getAttribute('href')).toBe('/');
    view.unmount();
    await i18n.changeLanguage('sw');
    renderAt(<NotFoundScreen />, { path: '/no-such-page', route: '*' });
    expect(screen.getByRole('heading', { level: 1, name: swahili('common.notFound') })).toBeTruthy();
    expect(screen.getByRole('link', { name: swahili('common.home') }).getAttribute('href')).toBe('/');
  });
});
