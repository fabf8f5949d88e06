import type { ComplaintCategory, ComplaintStatus } from './complaints';
import type { SanctionType } from './disciplinary';
import type { Notification } from './notifications';
import type { PreferenceLanguage } from './preferences';

/**
 * The wording of the server's notices (the delivered types: certificates, complaints, sanctions)
 * in English and Swahili, from a notice's type and parameters (its attributes, which name things:
 * a company's name, a certificate's number, a complaint's title; never an id). The one source of
 * that wording: the console's inbox and ops-api's mail and webhook deliveries both render with it.
 */
interface NoticeWords {
  sanctionRecorded: (sanction: string) => string;
  certificateApplied: (number: string) => string;
  certificateSubmitted: (number: string) => string;
  certificateApproved: (number: string) => string;
  certificateRejected: (number: string) => string;
  certificateFor: (company: string, idf: string) => string;
  certificateApprovedMessage: (number: string) => string;
  certificateRejectedMessage: (number: string) => string;
  note: (text: string) => string;
  reason: (text: string) => string;
  complaintFiled: string;
  complaintStatusChanged: (status: string) => string;
  sanctions: Record<SanctionType, string>;
  categories: Record<ComplaintCategory, string>;
  complaintStatus: Record<ComplaintStatus, string>;
}

const words: Record<PreferenceLanguage, NoticeWords> = {
  en: {
    sanctionRecorded: (s) => `Sanction recorded: ${s}`,
    certificateApplied: (n) => `Certificate ${n} applied for`,
    certificateSubmitted: (n) => `Certificate ${n} awaits approval`,
    certificateApproved: (n) => `Certificate ${n} approved`,
    certificateRejected: (n) => `Certificate ${n} rejected`,
    certificateFor: (company, idf) => `${company}: IDF ${idf}`,
    certificateApprovedMessage: (n) => `Certificate ${n} was approved by the association.`,
    certificateRejectedMessage: (n) => `Certificate ${n} was rejected by the association.`,
    note: (text) => `Note: ${text}`,
    reason: (text) => `Reason: ${text}`,
    complaintFiled: 'A complaint was filed',
    complaintStatusChanged: (status) => `Your complaint is now: ${status}`,
    sanctions: {
      warning: 'Warning',
      fine: 'Fine',
      probation: 'Probation',
      training: 'Training',
      suspension: 'Suspension',
      blacklist: 'Blacklist',
    },
    categories: {
      delay: 'Delay',
      cargo_damage: 'Cargo damage',
      cargo_loss: 'Cargo loss',
      route_deviation: 'Route deviation',
      unsafe_driving: 'Unsafe driving',
      overloading: 'Overloading',
      misconduct: 'Misconduct',
      documentation: 'Documentation',
      other: 'Other',
    },
    complaintStatus: { open: 'Open', under_review: 'Under review', resolved: 'Resolved', dismissed: 'Dismissed', closed: 'Closed' },
  },
  sw: {
    sanctionRecorded: (s) => `Adhabu imerekodiwa: ${s}`,
    certificateApplied: (n) => `Cheti ${n} kimeombwa`,
    certificateSubmitted: (n) => `Cheti ${n} kinasubiri kuidhinishwa`,
    certificateApproved: (n) => `Cheti ${n} kimeidhinishwa`,
    certificateRejected: (n) => `Cheti ${n} kimekataliwa`,
    certificateFor: (company, idf) => `${company}: IDF ${idf}`,
    certificateApprovedMessage: (n) => `Cheti ${n} kimeidhinishwa na chama.`,
    certificateRejectedMessage: (n) => `Cheti ${n} kimekataliwa na chama.`,
    note: (text) => `Maelezo: ${text}`,
    reason: (text) => `Sababu: ${text}`,
    complaintFiled: 'Malalamiko yamewasilishwa',
    complaintStatusChanged: (status) => `Malalamiko yako sasa: ${status}`,
    sanctions: {
      warning: 'Onyo',
      fine: 'Faini',
      probation: 'Kipindi cha majaribio',
      training: 'Mafunzo',
      suspension: 'Kusimamishwa',
      blacklist: 'Orodha nyeusi',
    },
    categories: {
      delay: 'Kuchelewa',
      cargo_damage: 'Mzigo kuharibika',
      cargo_loss: 'Mzigo kupotea',
      route_deviation: 'Kupotoka njia',
      unsafe_driving: 'Uendeshaji hatari',
      overloading: 'Kuzidisha uzito',
      misconduct: 'Utovu wa nidhamu',
      documentation: 'Nyaraka',
      other: 'Nyingine',
    },
    complaintStatus: {
      open: 'Wazi',
      under_review: 'Inachunguzwa',
      resolved: 'Imetatuliwa',
      dismissed: 'Limetupiliwa mbali',
      closed: 'Limefungwa',
    },
  },
};

/** 'sw', 'sw-TZ' and the like read Swahili; anything else (none, unknown) English. */
export function noticeLanguage(language: string | null | undefined): PreferenceLanguage {
  return language?.toLowerCase().startsWith('sw') ? 'sw' : 'en';
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
/** The word for a value (a sanction, a category, a status), else the value itself (one added since). */
const wordOf = (table: Record<string, string>, value: string): string => (Object.hasOwn(table, value) ? table[value]! : value);

/** The tables of words a notice names values with: sanctions, complaint categories, complaint states. */
export type NoticeWordTable = 'sanctions' | 'categories' | 'complaintStatus';

/**
 * A sanction's, a complaint category's or a complaint state's word in a language, as the notices
 * say it (the value itself for one added since): the console shows the same words on its screens.
 */
export function noticeWord(table: NoticeWordTable, value: string, language: string | null | undefined): string {
  return wordOf(words[noticeLanguage(language)][table], value);
}

/**
 * A notice in a language: from its type and parameters, with names. A notice without the
 * parameters (written before they were stored), or of a type worded elsewhere (a rule's event, a
 * test, an announcement), keeps its stored title and message.
 */
export function noticeText(
  n: Pick<Notification, 'type' | 'title' | 'message' | 'attributes'>,
  language: string | null | undefined,
): { title: string; message: string } {
  const w = words[noticeLanguage(language)];
  const a = n.attributes ?? {};
  const number = text(a.number);
  switch (n.type) {
    case 'sanctionRecorded': {
      const sanction = text(a.sanctionType);
      const subject = text(a.subjectName) ?? text(a.subjectRef);
      if (!sanction || !subject) break;
      const reason = text(a.reason);
      return { title: w.sanctionRecorded(wordOf(w.sanctions, sanction)), message: reason ? `${subject}: ${reason}` : subject };
    }
    case 'certificateApplied':
    case 'certificateSubmitted': {
      const company = text(a.companyName);
      if (!number || !company) break;
      return { title: w[n.type](number), message: w.certificateFor(company, text(a.idfNumber) ?? '') };
    }
    case 'certificateApproved':
    case 'certificateRejected': {
      if (!number) break;
      const reason = text(a.reason);
      return {
        title: w[n.type](number),
        message: reason ? (n.type === 'certificateApproved' ? w.note : w.reason)(reason) : w[`${n.type}Message`](number),
      };
    }
    case 'complaintFiled': {
      const title = text(a.complaintTitle);
      const category = text(a.category);
      if (!title || !category) break;
      return { title: w.complaintFiled, message: `${wordOf(w.categories, category)}: ${title}` };
    }
    case 'complaintStatusChanged': {
      const to = text(a.to);
      const title = text(a.complaintTitle);
      if (!to || !title) break;
      const note = text(a.note);
      return { title: w.complaintStatusChanged(wordOf(w.complaintStatus, to)), message: note ? `${title}: ${note}` : title };
    }
    default:
      break;
  }
  return { title: n.title, message: n.message };
}
