import { useContext } from 'react';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, type Language } from '../i18n/i18n';
import { useSavePreferences } from '../session/preferences';
import { UserContext } from '../session/user-context';

/** The language of the console; signed in, it is kept with the user (attributes.language), so their notices and files follow. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const user = useContext(UserContext);
  const save = useSavePreferences();
  const change = (language: Language) => {
    void i18n.changeLanguage(language);
    // best effort: the choice applies at once either way, and the account screen says when saving fails
    if (user) save({ language }).catch(() => undefined);
  };
  return (
    <label className="lang">
      <span className="sr-only">{t('common.language')}</span>
      <select value={i18n.language} onChange={(e) => change(e.target.value as Language)}>
        {LANGUAGES.map((l) => (
          <option key={l} value={l}>
            {t(`languages.${l}`)}
          </option>
        ))}
      </select>
    </label>
  );
}
