import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ShipmentStatus } from '@corridor/contracts/shipments';
import { isApiError } from '../api/errors';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { NoteDialog } from '../ui/NoteDialog';
import { useExplainError } from '../api/messages';
import { shipmentEndpoints } from './shipments';

const NEEDS_REASON: readonly ShipmentStatus[] = ['cancelled', 'on_hold'];

/**
 * The moves the user's roles may make from the shipment's state (asked from the API, never guessed).
 * A move the server refuses (the state changed meanwhile) says so with the moves allowed now.
 */
export function ShipmentMoves({ shipmentId }: { shipmentId: number }) {
  const { t } = useTranslation();
  const explain = useExplainError();
  const client = useQueryClient();
  const allowed = useApiQuery(shipmentEndpoints.allowed, { params: { shipmentId } });
  const move = useApiMutation(shipmentEndpoints.changeStatus, { invalidates: ['shipments.'] });
  const [asking, setAsking] = useState<ShipmentStatus | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function go(status: ShipmentStatus, reason: string | null) {
    setRefusal(null);
    try {
      await move.mutateAsync({ params: { shipmentId }, body: { status, reason } });
    } catch (e) {
      if (isApiError(e) && e.status === 409) {
        const now = e.allowed.map((s) => t(`status.${s as ShipmentStatus}`)).join(', ') || t('common.none');
        setRefusal(t('shipments.refused', { status: t(`status.${status}`), allowed: now }));
        // the race was lost: the shipment shown (its status, its moves) is re-read, not kept
        void client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('shipments.') });
        return;
      }
      if (reason !== null) throw e;
      setRefusal(explain(e).summary);
    }
  }

  const moves = allowed.data?.allowed ?? [];
  return (
    <div className="stack">
      <div className="toolbar" role="group" aria-label={t('shipments.moves')}>
        {allowed.isPending && <span className="muted">{t('common.loading')}</span>}
        {!allowed.isPending && moves.length === 0 && <span className="muted">{t('shipments.noMoves')}</span>}
        {moves.map((s) => (
          <button
            key={s}
            type="button"
            className={s === 'cancelled' ? 'btn btn-danger' : 'btn'}
            disabled={move.isPending}
            onClick={() => (NEEDS_REASON.includes(s) ? setAsking(s) : void go(s, null))}
          >
            {t(`shipments.moveTo.${s}`)}
          </button>
        ))}
      </div>
      {refusal && (
        <p role="alert" className="form-error">
          {refusal}
        </p>
      )}
      <NoteDialog
        open={asking !== null}
        title={asking ? t(`shipments.moveTo.${asking}`) : ''}
        noteLabel={t('shipments.reason')}
        noteRequired
        confirm={asking ? t(`shipments.moveTo.${asking}`) : ''}
        danger={asking === 'cancelled'}
        onClose={() => setAsking(null)}
        onConfirm={(reason) => go(asking!, reason)}
      />
    </div>
  );
}
