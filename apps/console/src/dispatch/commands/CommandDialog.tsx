import { useEffect, useMemo, useRef, useState } from 'react';
import { FormProvider } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CommandSendInput } from '@corridor/contracts/commands-api';
import type { Device } from '@corridor/contracts/devices';
import { useApiMutation, useApiQuery } from '../../api/hooks';
import { trackCommand } from '../../live/commands';
import { useQueryClient } from '@tanstack/react-query';
import { SelectField, TextField } from '../../ui/form/fields';
import { applyServerErrors } from '../../ui/form/server-errors';
import { useZodForm } from '../../ui/form/useZodForm';
import { FormError } from '../../ui/forms';
import { ErrorState, Loading } from '../../ui/states';
import { commandTypes, GRAVE, sendableCommands, sendCommand } from './command-endpoints';
import { CommandLog } from './CommandLog';
import './commands.css';

type Values = { deviceId: number; id?: number; type?: string; attributes: { data?: string } };

/**
 * Sending a command to a truck's tracker: what (a type its protocol supports, or a saved command),
 * a second step that says what will happen and asks to confirm, then the command's progress
 * (queued, sent to the device, answered) as the live feed reports it.
 */
export function CommandDialog({ device, open, onClose }: { device: Pick<Device, 'id' | 'name'>; open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (open && !d.open) d.showModal();
    else if (!open && d.open) d.close();
  }, [open]);
  return (
    <dialog ref={ref} onClose={onClose} aria-labelledby="command-title" className="command-dialog">
      <h2 id="command-title">{t('commands.title', { name: device.name })}</h2>
      {open && <CommandSteps device={device} onClose={onClose} />}
    </dialog>
  );
}

function CommandSteps({ device, onClose }: { device: Pick<Device, 'id' | 'name'>; onClose(): void }) {
  const { t } = useTranslation();
  const tt = t as unknown as (key: string, o?: Record<string, unknown>) => string;
  const client = useQueryClient();
  const types = useApiQuery(commandTypes, { query: { deviceId: device.id } });
  const saved = useApiQuery(sendableCommands, { query: { deviceId: device.id } });
  const schema = useMemo(
    () =>
      CommandSendInput.superRefine((c, ctx) => {
        if (c.id === undefined && c.type === 'custom' && !String(c.attributes.data ?? '').trim())
          ctx.addIssue({ code: 'custom', path: ['attributes', 'data'], message: 'data' });
      }),
    [],
  );
  const form = useZodForm(schema, {
    defaultValues: { deviceId: device.id, attributes: {} } as Values,
    refinements: { type: t('commands.chooseWhat'), 'attributes.data': t('commands.dataRequired') },
  });
  const [confirming, setConfirming] = useState<Values | null>(null);
  const [sentId, setSentId] = useState<number | null>(null);
  const send = useApiMutation(sendCommand, { onSuccess: (c) => (trackCommand(client, c), setSentId(c.id)) });
  const type = form.watch('type');
  const id = form.watch('id');

  if (types.isPending || saved.isPending) return <Loading />;
  if (types.error || saved.error)
    return <ErrorState error={types.error ?? saved.error} retry={() => void Promise.all([types.refetch(), saved.refetch()])} />;
  if (!types.data.length) {
    return (
      <>
        <p>{t('commands.unsupported')}</p>
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.close')}
          </button>
        </div>
      </>
    );
  }
  const label = (v: Pick<Values, 'id' | 'type'>) =>
    v.id !== undefined
      ? (saved.data.find((s) => s.id === v.id)?.description ?? String(v.id))
      : tt(`commands.types.${v.type}`, { defaultValue: v.type });
  const what = confirming ?? { type, id };
  const grave = confirming
    ? GRAVE.has(confirming.id !== undefined ? (saved.data.find((s) => s.id === confirming.id)?.type ?? '') : (confirming.type ?? ''))
    : false;

  if (sentId) {
    return (
      <>
        <CommandLog deviceId={device.id} only={sentId} />
        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={onClose} autoFocus>
            {t('common.close')}
          </button>
        </div>
      </>
    );
  }

  if (confirming) {
    return (
      <div className="stack">
        <p className={grave ? 'form-error' : 'form-note'} data-testid="command-confirm">
          {t('commands.confirmText', { what: label(what), name: device.name })} {grave && t('commands.engineStopWarning')}
        </p>
        {send.error && <FormError error={send.error} />}
        <div className="form-actions">
          <button type="button" className="btn" onClick={() => (send.reset(), setConfirming(null))}>
            {t('commands.back')}
          </button>
          <button
            type="button"
            className={grave ? 'btn btn-danger-solid' : 'btn btn-primary'}
            disabled={send.isPending}
            autoFocus
            onClick={() =>
              void send
                .mutateAsync({
                  body: {
                    deviceId: device.id,
                    ...(confirming.id !== undefined
                      ? { id: confirming.id }
                      : { type: confirming.type, attributes: confirming.type === 'custom' ? { data: confirming.attributes.data } : {} }),
                  },
                })
                .catch((e: unknown) => {
                  // a refusal that names a field goes back to the form, under that field; any other stays here
                  if (!applyServerErrors(e, form.setError, ['type', 'id', 'attributes.data'])) setConfirming(null);
                })
            }
          >
            {send.isPending ? t('commands.sending') : t('commands.confirm', { what: label(what) })}
          </button>
        </div>
      </div>
    );
  }

  return (
    <FormProvider {...form}>
      <form
        onSubmit={form.handleSubmit((v) => setConfirming(v as Values))}
        noValidate
        aria-label={t('commands.title', { name: device.name })}
      >
        {saved.data.length > 0 && (
          <SelectField
            name="id"
            label={t('commands.saved')}
            hint={t('commands.savedHint')}
            numeric
            empty={t('commands.none')}
            options={saved.data.map((s) => ({ value: s.id, label: s.description }))}
          />
        )}
        <SelectField
          name="type"
          label={t('commands.type')}
          hint={t('commands.typeHint')}
          disabled={id !== undefined}
          empty={t('common.choose')}
          options={types.data.map((x) => ({ value: x.type, label: tt(`commands.types.${x.type}`, { defaultValue: x.type }) }))}
        />
        {type === 'custom' && id === undefined && (
          <TextField
            name="attributes.data"
            label={t('commands.data')}
            hint={t('commands.dataHint')}
            maxLength={200}
            required
            autoComplete="off"
          />
        )}
        <div className="form-actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="btn btn-primary">
            {t('commands.next')}
          </button>
        </div>
      </form>
    </FormProvider>
  );
}
