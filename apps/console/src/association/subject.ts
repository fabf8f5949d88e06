import { z } from 'zod';

/** A complaint's or sanction's subject as its form holds it: the text asked for only when the subject is not the company itself. */
export const SubjectText = z.string().trim().max(64);

/**
 * The check a complaint's or sanction's form adds to its contract: a driver, truck or flag is named
 * (the company itself is sent by its id). A missing one is a custom issue on subjectRef, which the
 * form words (useZodForm's refinements).
 */
export function subjectNamed(v: { subjectType: string; subjectRef: string }, ctx: z.RefinementCtx): void {
  if (v.subjectType !== 'company' && !v.subjectRef) ctx.addIssue({ code: 'custom', path: ['subjectRef'], message: 'required' });
}
