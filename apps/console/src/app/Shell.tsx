import { useRef, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { may } from '../session/access';
import { useSignOut } from '../session/useSession';
import { useUser } from '../session/useUser';
import { useApplyPreferences } from '../session/preferences';
import { LanguageSwitch } from '../ui/LanguageSwitch';
import { LiveFeedProvider } from '../live/LiveFeedProvider';
import { FlagCue } from '../live/FlagCue';
import { AlertCenter, AlertSoundSwitch } from '../live/alerts/AlertCenter';
import { InboxBadge } from '../company/InboxBadge';
import { NAV } from './nav';
import { useRouteFocus } from './useRouteFocus';

/** The signed-in frame: the areas the user's roles open, the live feed, the inbox count, sign out. */
export default function Shell() {
  const { t } = useTranslation();
  const user = useUser();
  const signOut = useSignOut();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const main = useRef<HTMLElement>(null);
  useApplyPreferences();
  useRouteFocus(main, location.pathname);
  const areas = NAV.map((a) => ({
    ...a,
    items: a.items.filter((i) => may(user, i.gate) && (i.company === undefined || i.company === (user.companyId !== null))),
  })).filter((a) => a.items.length > 0);

  return (
    <LiveFeedProvider>
      <div className="shell">
        <a className="skip-link" href="#main">
          {t('common.skipToContent')}
        </a>
        <header className="topbar">
          <button
            type="button"
            className="btn btn-icon nav-toggle"
            aria-expanded={open}
            aria-controls="nav"
            onClick={() => setOpen((o) => !o)}
          >
            <span aria-hidden="true">☰</span>
            <span className="sr-only">{t('common.menu')}</span>
          </button>
          <span className="brand">Corridor</span>
          <span className="topbar-spacer" />
          <FlagCue />
          <AlertSoundSwitch />
          <InboxBadge />
          <LanguageSwitch />
          <Link to="/account" className="user-name" title={t('account.open', { email: user.email })}>
            {user.name}
          </Link>
          <button type="button" className="btn" onClick={() => void signOut()}>
            {t('session.signOut')}
          </button>
        </header>
        <nav id="nav" className={open ? 'sidenav open' : 'sidenav'} aria-label={t('common.navigation')} onClick={() => setOpen(false)}>
          {areas.map((area) => (
            <div key={area.label} className="nav-area">
              <h2>{t(`nav.${area.label}`)}</h2>
              <ul>
                {area.items.map((item) => (
                  <li key={item.to}>
                    <NavLink
                      to={item.to}
                      className={({ isActive }) => (isActive || location.pathname.startsWith(item.to + '/') ? 'active' : undefined)}
                    >
                      {t(`nav.${item.label}`)}
                    </NavLink>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {/* narrow windows hide the user's name in the top bar: the account opens from here instead */}
          <div className="nav-area nav-account">
            <h2>{user.name}</h2>
            <ul>
              <li>
                <NavLink to="/account">{t('account.title')}</NavLink>
              </li>
            </ul>
          </div>
        </nav>
        <main id="main" className="content" tabIndex={-1} ref={main}>
          <Outlet />
        </main>
        <AlertCenter />
      </div>
    </LiveFeedProvider>
  );
}
