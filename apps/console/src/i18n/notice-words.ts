import { useTranslation } from 'react-i18next';
import { noticeWord, type NoticeWordTable } from '@corridor/contracts/notice-text';

/**
 * Sanctions, complaint categories and complaint states in the reader's language: the words the
 * server's notices use (contracts notice-text, English and Swahili), read from there, not kept as a
 * second copy in the console's catalogues. Everything else the console says goes through i18next.
 */
export function useNoticeWord(): (table: NoticeWordTable, value: string) => string {
  const { i18n } = useTranslation();
  const language = i18n.resolvedLanguage ?? i18n.language;
  return (table, value) => noticeWord(table, value, language);
}
