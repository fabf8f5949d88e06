import type { ComplaintStatus } from '@corridor/contracts';

export const complaintStatuses: readonly ComplaintStatus[] = ['open', 'under_review', 'resolved', 'dismissed', 'closed'];

export interface ComplaintTransition {
  from: ComplaintStatus;
  to: ComplaintStatus;
  /** A note (resolution, reason) must come with the change. */
  needsNote: boolean;
  /** A reopen: allowed only within the reopen window after the decision. */
  reopen: boolean;
}

const t = (from: ComplaintStatus, to: ComplaintStatus, needsNote = false, reopen = false): ComplaintTransition => ({
  from,
  to,
  needsNote,
  reopen,
});

/** The one table of allowed complaint changes; the API and its tests read it, nothing else decides. */
const complaintTransitions: readonly ComplaintTransition[] = [
  t('open', 'under_review'),
  t('open', 'dismissed', true),
  t('under_review', 'resolved', true),
  t('under_review', 'dismissed', true),
  t('resolved', 'closed'),
  t('dismissed', 'closed'),
  t('resolved', 'open', true, true),
  t('dismissed', 'open', true, true),
  t('closed', 'open', true, true),
];

const DAY_MS = 86_400_000;

/** The last moment a decided complaint may be reopened (null while undecided). */
export function reopenUntil(decidedAt: Date | null, reopenDays: number): Date | null {
  return decidedAt ? new Date(decidedAt.getTime() + reopenDays * DAY_MS) : null;
}

export interface WorkflowState {
  status: ComplaintStatus;
  decidedAt: Date | null;
}

/** The transition from the current state to `to`, if the workflow allows it now. */
export function transitionTo(s: WorkflowState, to: ComplaintStatus, now: Date, reopenDays: number): ComplaintTransition | undefined {
  const tr = complaintTransitions.find((x) => x.from === s.status && x.to === to);
  if (!tr) return undefined;
  if (tr.reopen) {
    const until = reopenUntil(s.decidedAt, reopenDays);
    if (!until || now > until) return undefined;
  }
  return tr;
}

export function allowedNext(s: WorkflowState, now: Date, reopenDays: number): ComplaintStatus[] {
  return complaintStatuses.filter((to) => transitionTo(s, to, now, reopenDays));
}
