import type { ReactNode } from 'react';
import { LanguageSwitch } from '../ui/LanguageSwitch';

/** The card of the pages shown to someone not signed in (sign-in, a mailed link): the name and the language choice above its content. */
export function PublicCard({ children }: { children: ReactNode }) {
  return (
    <main className="signin">
      <div className="signin-card">
        <div className="signin-head">
          <h1 className="brand">Corridor</h1>
          <LanguageSwitch />
        </div>
        {children}
      </div>
    </main>
  );
}
