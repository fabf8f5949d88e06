import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';

/** An address of the console that names no screen: said in a heading (which the route focus moves to and the page title takes), with a way back. */
export default function NotFoundScreen() {
  const { t } = useTranslation();
  return (
    <div className="screen">
      <h1>{t('common.notFound')}</h1>
      <p className="muted">{t('common.notFoundHint')}</p>
      <p>
        <Link to="/">{t('common.home')}</Link>
      </p>
    </div>
  );
}
