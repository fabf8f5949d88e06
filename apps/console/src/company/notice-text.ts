import type { TFunction } from 'i18next';
import type { Notification } from '@corridor/contracts/notifications';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** A word from the catalogue for a value (a status, a sanction), else the value itself. */
function word(t: TFunction, key: string, value: string): string {
  const w = t(key as never);
  return w === key ? value : w;
}

/**
 * A notice in the reader's language: from its type and parameters (its attributes, with names
 * rather than ids: ops-api stores them when it writes the notice), worded by the console's
 * catalogue. A notice without the parameters (written before they were stored, or a rule's event
 * already worded in the recipient's language) keeps its stored title and message.
 */
export function noticeText(
  t: TFunction,
  n: Pick<Notification, 'type' | 'title' | 'message' | 'attributes'>,
): { title: string; message: string } {
  const a = n.attributes ?? {};
  const number = text(a.number);
  switch (n.type) {
    case 'sanctionRecorded': {
      const sanction = text(a.sanctionType);
      const subject = text(a.subjectName) ?? text(a.subjectRef);
      if (!sanction || !subject) break;
      const s = word(t, `disciplinary.sanctions.${sanction}`, sanction);
      return {
        title: t('notices.sanctionRecorded', { sanction: s }),
        message: t('notices.sanctionMessage', { subject, reason: text(a.reason) ?? '' }),
      };
    }
    case 'certificateApplied':
    case 'certificateSubmitted': {
      const company = text(a.companyName);
      if (!number || !company) break;
      return { title: t(`notices.${n.type}`, { number }), message: t('notices.certificateFor', { company, idf: text(a.idfNumber) ?? '' }) };
    }
    case 'certificateApproved':
    case 'certificateRejected': {
      if (!number) break;
      const reason = text(a.reason);
      return {
        title: t(`notices.${n.type}`, { number }),
        message: reason
          ? t(n.type === 'certificateApproved' ? 'notices.note' : 'notices.reason', { text: reason })
          : t(`notices.${n.type}Message`, { number }),
      };
    }
    case 'complaintFiled': {
      const title = text(a.complaintTitle);
      const category = text(a.category);
      if (!title || !category) break;
      return { title: t('notices.complaintFiled'), message: `${word(t, `complaints.categories.${category}`, category)}: ${title}` };
    }
    case 'complaintStatusChanged': {
      const to = text(a.to);
      const title = text(a.complaintTitle);
      if (!to || !title) break;
      const note = text(a.note);
      return {
        title: t('notices.complaintStatusChanged', { status: word(t, `status.${to}`, to) }),
        message: note ? `${title}: ${note}` : title,
      };
    }
    default:
      break;
  }
  return { title: n.title, message: n.message };
}
