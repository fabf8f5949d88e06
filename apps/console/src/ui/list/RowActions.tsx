import { useTranslation } from 'react-i18next';

/**
 * A row's Edit and Delete buttons, each named for its record ("Edit Truck 07"); Delete asks
 * `confirm` first and does nothing when the person says no.
 */
export function RowActions({
  editLabel,
  onEdit,
  deleteLabel,
  confirm,
  onDelete,
  disabled,
}: {
  editLabel: string;
  onEdit(): void;
  deleteLabel: string;
  confirm: string;
  onDelete(): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <span className="toolbar">
      <button type="button" className="btn btn-small" aria-label={editLabel} onClick={onEdit} disabled={disabled}>
        {t('common.edit')}
      </button>
      <button
        type="button"
        className="btn btn-small btn-danger"
        aria-label={deleteLabel}
        onClick={() => window.confirm(confirm) && onDelete()}
      >
        {t('users.delete')}
      </button>
    </span>
  );
}
