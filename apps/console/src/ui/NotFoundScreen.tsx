import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Empty } from './states';

export default function NotFoundScreen() {
  const { t } = useTranslation();
  return <Empty title={t('common.notFound')} hint={t('common.notFoundHint')} action={<Link to="/">{t('common.home')}</Link>} />;
}
