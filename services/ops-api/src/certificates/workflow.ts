import type { CertificateAction, CertificateStatus } from '@corridor/contracts';

export const certificateStatuses: readonly CertificateStatus[] = ['applied', 'submitted', 'approved', 'rejected'];

export interface CertificateTransition {
  from: CertificateStatus;
  action: CertificateAction;
  to: CertificateStatus;
}

/** The one table of certificate changes. `applied` is only ever entered by applying (a new row). */
const certificateTransitions: readonly CertificateTransition[] = [
  { from: 'applied', action: 'generate', to: 'submitted' },
  { from: 'applied', action: 'reject', to: 'rejected' },
  { from: 'submitted', action: 'approve', to: 'approved' },
  { from: 'submitted', action: 'reject', to: 'rejected' },
];

export function transitionFor(from: CertificateStatus, action: CertificateAction): CertificateTransition | undefined {
  return certificateTransitions.find((t) => t.from === from && t.action === action);
}

/** Whether the table has any way from one state to another. */
export const canMove = (from: CertificateStatus, to: CertificateStatus): boolean =>
  certificateTransitions.some((t) => t.from === from && t.to === to);

/** Each action as a message says it was done ("cannot be rejected"), one entry per action. */
export const actionDone: Record<CertificateAction, string> = { generate: 'generated', approve: 'approved', reject: 'rejected' };

export const allowedActions = (from: CertificateStatus): CertificateAction[] =>
  certificateTransitions.filter((t) => t.from === from).map((t) => t.action);
