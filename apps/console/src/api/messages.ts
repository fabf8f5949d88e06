import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ComplaintStatus } from '@corridor/contracts/complaints';
import { noticeWord } from '@corridor/contracts/notice-text';
import { SignInRefusal } from '@corridor/contracts/session';
import { i18n } from '../i18n/i18n';
import { issueMessage } from '../ui/form/zod-messages';
import { isApiError, type ApiError } from './errors';

/**
 * The one place where the API's refusals become sentences for people, in their language: by the
 * error's code (packages/contracts errors.ts) and its details (a 400's field paths with zod's
 * issue codes and limits, a 409's states, a report's period), never by the server's English
 * message. A problem of a field is named as the form labels it (the labels a form passes), else
 * by a word for that API field, never by its path (`body.reason`).
 */
interface FieldProblem {
  /** The field's path in the request body or query, without `body.` / `querystring.` (e.g. 'attributes.speedLimit'). */
  path: string;
  /** What the form (or the console) calls the field. */
  label: string;
  /** The problem, a sentence without the field's name (shown under the field). */
  problem: string;
}

export interface Explained {
  /** The whole refusal in one or two sentences (a banner, a dialog, a toast). */
  summary: string;
  /** The problems of single fields (a 400's details), to show under each field. */
  problems: FieldProblem[];
}

/** Labels of a form's fields by their path ('reason', 'attributes.speedLimit'). */
export type FieldLabels = Readonly<Record<string, string>>;

interface Detail {
  in?: unknown;
  path?: unknown;
  message?: unknown;
  code?: unknown;
  minimum?: unknown;
  maximum?: unknown;
  origin?: unknown;
  format?: unknown;
  expected?: unknown;
  /** A server check's reason code (ops-api invalidField), with its parameters beside it. */
  reason?: unknown;
  protocol?: unknown;
  type?: unknown;
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

const signInReasons: ReadonlySet<string> = new Set(SignInRefusal.options);
/** A sign-in refusal's reason (a 401's details.reason), when the console knows it. */
function signInReason(details: unknown): SignInRefusal | undefined {
  const reason = str((details as Record<string, unknown> | undefined)?.reason);
  return reason && signInReasons.has(reason) ? (reason as SignInRefusal) : undefined;
}

/** A field's path as the form knows it: the request part dropped ('body.reason' → 'reason'). */
const fieldPath = (path: string): string => path.replace(/^(body|querystring|params)\.?/, '');

function labelOf(t: TFunction, path: string, labels: FieldLabels): string {
  if (labels[path]) return labels[path];
  // the nearest labelled parent ('stops.0.name' under a form's 'stops'), else a word for the last named segment
  const parts = path.split('.');
  for (let i = parts.length - 1; i > 0; i--) {
    const parent = parts.slice(0, i).join('.');
    if (labels[parent]) return labels[parent];
  }
  const named = [...parts].reverse().find((p) => !/^\d+$/.test(p)) ?? '';
  const key = `fields.${named}` as never;
  const word = t(key);
  return word === key || !named ? t('fields.unknown') : word;
}

/** A 400 detail's problem in words: zod's issue code and limits, worded as the forms word their own checks. */
function problemOf(t: TFunction, d: Detail): string {
  const message = str(d.message) ?? '';
  const reason = str(d.reason);
  if (reason && signInReasons.has(reason)) return t(`errors.signIn.${reason as SignInRefusal}`);
  if (reason) {
    const key = `errors.reasons.${reason}` as never;
    const commandType = str(d.type) ?? '';
    const typeKey = `commands.types.${commandType}` as never;
    const worded = t(key, { protocol: str(d.protocol) ?? '', type: t(typeKey) === typeKey ? commandType : t(typeKey) });
    if (worded !== key) return worded;
  }
  const code = str(d.code);
  if (!code) return t('form.invalid');
  const missing = /received (undefined|null)|required/i.test(message);
  const worded = issueMessage(t)({
    code,
    origin: str(d.origin),
    minimum: num(d.minimum),
    maximum: num(d.maximum),
    format: str(d.format),
    input: missing ? undefined : '·',
    message: undefined,
  });
  return worded ?? t('form.invalid');
}

function fieldProblems(t: TFunction, details: unknown, labels: FieldLabels): FieldProblem[] {
  if (!Array.isArray(details)) return [];
  const out: FieldProblem[] = [];
  for (const d of details as Detail[]) {
    const raw = str(d?.path);
    if (raw === undefined) continue;
    const path = fieldPath(raw);
    const problem = /mail is not available|SMTP_URL/.test(str(d.message) ?? '') ? t('errors.mailUnavailable') : problemOf(t, d);
    // one problem per field: the first zod reports
    if (!out.some((p) => p.path === path)) out.push({ path, label: labelOf(t, path, labels), problem });
  }
  return out;
}

/** The refusal of a request (an ApiError, a failed fetch, anything thrown) as sentences for people. */
export function explainError(t: TFunction, error: unknown, labels: FieldLabels = {}): Explained {
  if (!error) return { summary: '', problems: [] };
  if (!isApiError(error)) return { summary: error instanceof TypeError ? t('errors.network') : t('errors.unknown'), problems: [] };
  const e: ApiError = error;
  const details = e.details as Record<string, unknown> | unknown[] | undefined;
  const one = (summary: string): Explained => ({ summary, problems: [] });
  switch (e.code) {
    case 'VALIDATION_FAILED': {
      const d = (Array.isArray(details) ? {} : (details ?? {})) as Record<string, unknown>;
      const max = num(d.maxPeriodDays);
      if (max !== undefined) return one(t('errors.periodTooLong', { max, days: num(d.periodDays) ?? '?' }));
      if (Array.isArray(d.fields) && d.fields.includes('from') && d.fields.includes('to')) return one(t('errors.periodReversed'));
      const problems = fieldProblems(t, details, labels);
      if (!problems.length) return one(t('errors.invalid'));
      return { summary: problems.map((p) => t('errors.fieldProblem', { field: p.label, problem: p.problem })).join(' '), problems };
    }
    case 'UNAUTHENTICATED': {
      // a sign-in's refusal by its reason (contracts SignInRefusal); a wrong one-time code is said under the code
      const reason = signInReason(details);
      if (reason === 'codeWrong' || reason === 'codeUsed') {
        const problem = t(`errors.signIn.${reason}`);
        return { summary: problem, problems: [{ path: 'code', label: labelOf(t, 'code', labels), problem }] };
      }
      return one(reason ? t(`errors.signIn.${reason}`) : t('errors.signedOut'));
    }
    case 'FORBIDDEN': {
      // a password that proves who asks (turning two-step sign-in off) was wrong: said under that field
      if (str((details as Record<string, unknown> | undefined)?.field) === 'password') {
        const problem = t('errors.wrongPassword');
        return { summary: problem, problems: [{ path: 'password', label: labelOf(t, 'password', labels), problem }] };
      }
      return one(t('errors.forbidden'));
    }
    case 'NOT_FOUND':
      return one(t('errors.notFound'));
    case 'CONFLICT': {
      const field = str((details as Record<string, unknown> | undefined)?.field);
      if (!field) return one(t('errors.conflict'));
      const label = labelOf(t, field, labels);
      return {
        summary: t('errors.conflictField', { field: label }),
        problems: [{ path: field, label, problem: t('errors.conflictField', { field: label }) }],
      };
    }
    case 'INVALID_TRANSITION': {
      const d = (details ?? {}) as { current?: unknown; from?: unknown };
      const state = str(d.current) ?? str(d.from) ?? '';
      // a complaint's states are worded as the notices word them (contracts notice-text), the others by the catalogue
      const word = (s: string) => {
        const key = `status.${s}` as never;
        const w = t(key);
        if (w !== key) return w;
        // the language of `t` (a fixed t carries it; the console's own follows the reader's)
        const language = (t as unknown as { lng?: string }).lng ?? i18n.resolvedLanguage ?? i18n.language;
        return ComplaintStatus.safeParse(s).success ? noticeWord('complaintStatus', s, language) : s;
      };
      const allowed = e.allowed.map(word);
      return one(
        allowed.length
          ? t('errors.transitionAllowed', { state: word(state), allowed: allowed.join(', ') })
          : t('errors.transition', { state: word(state) }),
      );
    }
    case 'PAYLOAD_TOO_LARGE':
      return one(t('errors.tooLarge'));
    case 'UNSUPPORTED_MEDIA_TYPE': {
      const declared = str((details as Record<string, unknown> | undefined)?.declared);
      return one(
        declared && /does not match|not UTF-8|not valid JSON/.test(e.message)
          ? t('errors.contentMismatch', { declared })
          : t('errors.mediaType'),
      );
    }
    case 'UNPROCESSABLE':
      return one(t('errors.unprocessable'));
    case 'UNKNOWN_DEVICE':
      return one(t('errors.unknownDevice'));
    case 'RATE_LIMITED': {
      const after = num((details as Record<string, unknown> | undefined)?.retryAfterSeconds);
      return one(after ? t('errors.rateLimitedFor', { count: Math.ceil(after) }) : t('errors.rateLimited'));
    }
    case 'CONTRACT_DRIFT':
      return one(t('errors.drift'));
    case 'INTERNAL':
      return one(t('errors.internal'));
    case 'BAD_GATEWAY':
    case 'UNAVAILABLE':
    case 'GATEWAY_TIMEOUT':
      return one(t('errors.unavailable'));
    default:
      return one(e.status >= 500 ? t('errors.internal') : e.status === 404 ? t('errors.notFound') : t('errors.unknown'));
  }
}

/** explainError in the user's language: `(error, labels?) => Explained`. */
export function useExplainError(): (error: unknown, labels?: FieldLabels) => Explained {
  const { t } = useTranslation();
  return useCallback((error: unknown, labels?: FieldLabels) => explainError(t, error, labels), [t]);
}
