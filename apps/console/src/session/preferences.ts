import { useContext, useEffect, useMemo } from 'react';
import { QueryClientContext } from '@tanstack/react-query';
import { preferencesOf, withPreferences, type Preferences } from '@corridor/contracts/preferences';
import { usersEndpoints, type User, type UserUpdate } from '@corridor/contracts/users';
import { call } from '../api/client';
import { endpoint } from '../api/endpoint';
import { keyOf } from '../api/hooks';
import { i18n, LANGUAGES } from '../i18n/i18n';
import { sessionGet, useServer } from './useSession';
import { UserContext } from './user-context';

const userUpdate = endpoint(usersEndpoints, 'users.update');

/**
 * The signed-in user's preferences (units, time zone, coordinate format, language, dark mode): their
 * attributes as Traccar keeps them, else the server's, else the defaults (packages/contracts
 * preferences.ts). Outside a session: the server's and the defaults.
 */
export function usePreferences(): Preferences {
  const user = useContext(UserContext);
  const server = useServer();
  return useMemo(() => preferencesOf(user ?? undefined, server.data ?? undefined), [user, server.data]);
}

/** The user as PUT /users/{id} takes it back: every field they have, with new preferences (and the others of their attributes kept). */
function withUserPreferences(user: User, p: Partial<Preferences>): UserUpdate {
  const { coordinateFormat, ...attributes } = p;
  return {
    name: user.name,
    login: user.login,
    email: user.email,
    phone: user.phone,
    readonly: user.readonly,
    map: user.map,
    latitude: user.latitude,
    longitude: user.longitude,
    zoom: user.zoom,
    coordinateFormat: coordinateFormat === undefined ? user.coordinateFormat : coordinateFormat,
    disabled: user.disabled,
    expirationTime: user.expirationTime,
    deviceLimit: user.deviceLimit,
    userLimit: user.userLimit,
    deviceReadonly: user.deviceReadonly,
    limitCommands: user.limitCommands,
    disableReports: user.disableReports,
    fixedEmail: user.fixedEmail,
    poiLayer: user.poiLayer,
    roles: user.roles,
    companyId: user.companyId,
    attributes: withPreferences(user.attributes, attributes),
  } as UserUpdate;
}

/** Saves preferences to the user's own record (PUT /users/{id}); the session's user becomes the answer. */
export function useSavePreferences() {
  // the context, not useQueryClient(): the language switch also sits on public pages rendered without a client
  const client = useContext(QueryClientContext);
  const user = useContext(UserContext);
  return async (p: Partial<Preferences>): Promise<User> => {
    if (!user) throw new Error('no user');
    const saved = await call(userUpdate, { params: { id: user.id }, body: withUserPreferences(user, p) });
    client?.setQueryData(keyOf(sessionGet, {}), saved);
    return saved;
  };
}

/** The dark mode in force: the user's choice, else the system's (prefers-color-scheme). */
function themeOf(darkMode: boolean | null): 'light' | 'dark' | 'system' {
  return darkMode === null ? 'system' : darkMode ? 'dark' : 'light';
}

/**
 * Applies the signed-in user's language and theme to the page: their saved language (when they
 * have one) replaces the browser's, and `data-theme` on <html> follows their dark mode (absent:
 * the stylesheet follows the system).
 */
export function useApplyPreferences(): void {
  const p = usePreferences();
  useEffect(() => {
    if (p.language && (LANGUAGES as readonly string[]).includes(p.language) && i18n.language !== p.language)
      void i18n.changeLanguage(p.language);
  }, [p.language]);
  useEffect(() => {
    const root = document.documentElement;
    const theme = themeOf(p.darkMode);
    if (theme === 'system') root.removeAttribute('data-theme');
    else root.setAttribute('data-theme', theme);
  }, [p.darkMode]);
}
