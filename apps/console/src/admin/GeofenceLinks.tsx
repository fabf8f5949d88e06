import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { geofenceLinksEndpoints, isAssociationFence } from '@corridor/contracts/geofence-links';
import { geofencesEndpoints, type Geofence } from '@corridor/contracts/geofences';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFleetDevices } from '../live/queries';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DevicesPicker, type DeviceChoice } from '../ui/form/pickers';
import { FormError } from '../ui/forms';
import { useGroups } from '../ui/lookups';
import { ErrorState, Loading } from '../ui/states';

const linksOf = endpoint(geofencesEndpoints, 'geofences.links.list');
const link = endpoint(geofenceLinksEndpoints, 'geofenceLinks.create');
const unlink = endpoint(geofenceLinksEndpoints, 'geofenceLinks.delete');

/**
 * Which trucks a fence applies to (contracts geofenceAppliesTo): a shared place of the corridor
 * applies to every truck; any other fence only to the trucks and groups linked to it, listed here
 * by name, and linked or unlinked in a dialog by those who may.
 */
export function GeofenceAppliesTo({ fence }: { fence: Geofence }) {
  const { t } = useTranslation();
  const user = useUser();
  const q = useApiQuery(linksOf, { params: { id: fence.id } });
  const devices = useFleetDevices();
  const groups = useGroups();
  const [open, setOpen] = useState(false);
  const shared = isAssociationFence(fence);
  const deviceName = new Map((devices.data ?? []).map((d) => [d.id, d.name]));
  const linked: DeviceChoice = {
    deviceIds: (q.data ?? []).flatMap((l) => (l.deviceId === null ? [] : [l.deviceId])),
    groupIds: (q.data ?? []).flatMap((l) => (l.groupId === null ? [] : [l.groupId])),
  };
  const names = [
    ...linked.deviceIds.map((id) => ({ key: `d${id}`, name: deviceName.get(id) ?? t('fenceLinks.unknownDevice', { id }) })),
    ...linked.groupIds.map((id) => ({
      key: `g${id}`,
      name: t('fenceLinks.groupNamed', { name: groups.byId.get(id)?.name ?? t('fenceLinks.unknownGroup', { id }) }),
    })),
  ].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <section className="card" aria-labelledby="fence-applies">
      <h2 id="fence-applies">{t('fenceLinks.title', { name: fence.name })}</h2>
      {shared ? (
        <p>{t('fenceLinks.everyTruck')}</p>
      ) : q.isPending ? (
        <Loading />
      ) : q.error ? (
        <ErrorState error={q.error} retry={() => void q.refetch()} />
      ) : names.length ? (
        <ul className="plain-list" aria-label={t('fenceLinks.listLabel', { name: fence.name })} data-testid="fence-links">
          {names.map((n) => (
            <li key={n.key}>{n.name}</li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t('fenceLinks.none')}</p>
      )}
      {!shared && may(user, link) && (
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => setOpen(true)} disabled={q.isPending}>
            {t('fenceLinks.change')}
          </button>
        </div>
      )}
      {!shared && <GeofenceLinksDialog fence={fence} linked={linked} open={open} onClose={() => setOpen(false)} />}
    </section>
  );
}

/** The difference between two choices: what to link and what to unlink, as /links/geofences takes them. */
function linkChanges(fenceId: number, before: DeviceChoice, after: DeviceChoice) {
  const minus = (a: number[], b: number[]) => a.filter((x) => !b.includes(x));
  const body = (choice: DeviceChoice) => [
    ...choice.deviceIds.map((deviceId) => ({ deviceId, geofenceId: fenceId })),
    ...choice.groupIds.map((groupId) => ({ groupId, geofenceId: fenceId })),
  ];
  return {
    add: body({ deviceIds: minus(after.deviceIds, before.deviceIds), groupIds: minus(after.groupIds, before.groupIds) }),
    remove: body({ deviceIds: minus(before.deviceIds, after.deviceIds), groupIds: minus(before.groupIds, after.groupIds) }),
  };
}

/**
 * The trucks and groups of a fence, chosen with the shared device picker (search, select shown,
 * groups); saving links what was added and unlinks what was removed, each all or nothing.
 */
function GeofenceLinksDialog({ fence, linked, open, onClose }: { fence: Geofence; linked: DeviceChoice; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  const [choice, setChoice] = useState<DeviceChoice>(linked);
  const add = useApiMutation(link, { invalidates: ['geofences.'] });
  const remove = useApiMutation(unlink, { invalidates: ['geofences.'] });
  const [error, setError] = useState<unknown>(null);
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) {
      setChoice(linked);
      setError(null);
      d.showModal();
    } else if (!open && d.open) d.close();
  }, [open]); // eslint-disable-line react-hooks/exhaustive-deps -- the links as they are when it opens

  async function save() {
    const { add: added, remove: removed } = linkChanges(fence.id, linked, choice);
    setError(null);
    setSaving(true);
    try {
      if (added.length) await add.mutateAsync({ body: added });
      if (removed.length) await remove.mutateAsync({ body: removed });
      onClose();
    } catch (err) {
      setError(err);
    } finally {
      setSaving(false);
    }
  }

  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="fence-links-title">
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <h2 id="fence-links-title">{t('fenceLinks.dialogTitle', { name: fence.name })}</h2>
          <p className="muted small">{t('fenceLinks.hint')}</p>
          <DevicesPicker label={t('fenceLinks.pick')} value={choice} onChange={setChoice} />
          <FormError error={error} />
          <div className="form-actions">
            <button type="button" className="btn" onClick={onClose}>
              {t('common.cancel')}
            </button>
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {t('fenceLinks.save')}
            </button>
          </div>
        </form>
      )}
    </dialog>
  );
}
