import type { OperationsAuditPage, TraccarAction } from '@corridor/contracts';
import type { Identity, Orm } from '@corridor/platform';
import { audit } from './audit';

/** At most this many entries of each trail in one answer (the newest of the period). */
const MAX_PER_TRAIL = 10_000;
const PAGE = 1000;

/** Traccar's verb for an audited action ('device.update' is an edit, 'permission.link' a link). */
function actionTypeOf(action: string): string {
  const verb = action.slice(action.lastIndexOf('.') + 1);
  return ({ update: 'edit', delete: 'remove' } as Record<string, string>)[verb] ?? verb;
}

const numericId = (id: string): number => (/^\d{1,15}$/.test(id) ? Number(id) : 0);

interface Entry {
  id: number;
  at: string;
  actor: { userId: number | null; email: string | null };
  action: string;
  entityType: string;
  entityId: string;
  requestId: string | null;
  address?: string | null;
}

const toAction = (e: Entry, id: number): TraccarAction => ({
  id,
  actionTime: e.at,
  ...(e.address ? { address: e.address } : {}),
  userId: e.actor.userId ?? 0,
  ...(e.actor.email ? { userEmail: e.actor.email } : {}),
  actionType: actionTypeOf(e.action),
  objectType: e.entityType,
  objectId: numericId(e.entityId),
  attributes: { action: e.action, requestId: e.requestId },
});

/**
 * GET /audit (Traccar): the gateway's identity trail and ops-api's operations trail over a period,
 * oldest first. Ids stay unique across the two: 2n for the gateway's entry n, 2n+1 for ops-api's.
 */
export function traccarActions(deps: { db: Orm; opsAudit(who: Identity, query: string): Promise<OperationsAuditPage> }) {
  async function identityEntries(from: Date, to: Date): Promise<Entry[]> {
    const out: Entry[] = [];
    for (let offset = 0; offset < MAX_PER_TRAIL; offset += PAGE) {
      const { rows } = await audit.list(deps.db, { from, to, limit: PAGE, offset });
      out.push(
        ...rows.map((r) => ({
          id: r.id,
          at: r.at.toISOString(),
          actor: { userId: r.actorUserId, email: r.actorEmail },
          action: r.action,
          entityType: r.entityType,
          entityId: r.entityId,
          requestId: r.requestId,
          address: r.address,
        })),
      );
      if (rows.length < PAGE) break;
    }
    return out;
  }
  async function operationsEntries(who: Identity, from: string, to: string): Promise<Entry[]> {
    const out: Entry[] = [];
    for (let offset = 0; offset < MAX_PER_TRAIL; offset += PAGE) {
      const page = await deps.opsAudit(who, `?${new URLSearchParams({ from, to, limit: String(PAGE), offset: String(offset) })}`);
      out.push(...page.items);
      if (page.items.length < PAGE) break;
    }
    return out;
  }
  return async (q: { from: string; to: string }, who: Identity): Promise<TraccarAction[]> => {
    const [identity, operations] = await Promise.all([
      identityEntries(new Date(q.from), new Date(q.to)),
      operationsEntries(who, q.from, q.to),
    ]);
    const actions = [...identity.map((e) => toAction(e, e.id * 2)), ...operations.map((e) => toAction(e, e.id * 2 + 1))];
    return actions.sort((a, b) => Date.parse(a.actionTime) - Date.parse(b.actionTime) || a.id - b.id);
  };
}
