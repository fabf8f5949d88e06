import { useTranslation } from 'react-i18next';
import {
  InventoryAssign,
  InventoryRevoke,
  InventoryTransfer,
  inventoriesEndpoints,
  type InventoryItem,
} from '@corridor/contracts/inventories';
import { endpoint } from '../api/endpoint';
import { useApiMutation } from '../api/hooks';
import { TextAreaField } from '../ui/form/fields';
import { FormCard, useSending } from '../ui/form/FormCard';
import { CompanyField } from '../ui/form/pickers';
import { useServerProblems } from '../ui/form/server-errors';
import { useZodForm } from '../ui/form/useZodForm';

const endpoints = {
  assign: endpoint(inventoriesEndpoints, 'inventories.assign'),
  revoke: endpoint(inventoriesEndpoints, 'inventories.revoke'),
  transfer: endpoint(inventoriesEndpoints, 'inventories.transfer'),
};
const SCHEMAS = { assign: InventoryAssign, revoke: InventoryRevoke, transfer: InventoryTransfer };
export type InventoryActionKind = keyof typeof SCHEMAS;

/**
 * Assigning a tracking unit to a company, transferring it to another, or revoking it: one form each,
 * checked by the contract's InventoryAssign, InventoryTransfer or InventoryRevoke before it is sent
 * (a transfer and a revocation need their reason; an assignment's is optional).
 */
export function InventoryActionForm({
  kind,
  item,
  device,
  onDone,
}: {
  kind: InventoryActionKind;
  item: InventoryItem;
  device: string;
  onDone(): void;
}) {
  const { t } = useTranslation();
  const run = useApiMutation(endpoints[kind], { invalidates: ['inventories.', 'devices.'] });
  const form = useZodForm(SCHEMAS[kind] as typeof InventoryTransfer, { defaultValues: { reason: kind === 'assign' ? null : '' } as never });
  const labels = { companyId: t('inventories.toCompany'), toCompanyId: t('inventories.toCompany'), reason: t('shipments.reason') };
  const { submit, error } = useSending(form.handleSubmit, async (body) => {
    await run.mutateAsync({ params: { id: item.id }, body } as never);
    onDone();
  });
  const problem = useServerProblems(form, error, labels);
  return (
    <FormCard
      form={form}
      title={t(`inventories.${kind}Title`, { device })}
      onSubmit={submit}
      onCancel={onDone}
      problem={problem}
      submitLabel={t(`inventories.${kind}`)}
      danger={kind === 'revoke'}
    >
      <div className="form-grid">
        {kind !== 'revoke' && <CompanyField name={kind === 'assign' ? 'companyId' : 'toCompanyId'} label={labels.companyId} required />}
        <TextAreaField name="reason" label={labels.reason} required={kind !== 'assign'} rows={2} maxLength={1000} className="span-all" />
      </div>
    </FormCard>
  );
}
