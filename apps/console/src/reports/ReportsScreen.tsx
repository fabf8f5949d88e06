import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';
import { DevicesPicker } from '../ui/form/pickers';
import { PeriodPicker, usePeriod } from '../ui/PeriodPicker';
import { ErrorState } from '../ui/states';
import { REPORT_KINDS, type ReportKind } from './reports';
import { ReportResults } from './ReportResults';
import { RouteReportMap } from './RouteReportMap';
import type { Position } from '@corridor/contracts/positions';
import { reportUrl, useReport, useReportDownload, type ReportRequest } from './useReport';

/** Route, events, trips, stops and summary reports for devices or groups over a period: a chart, a table, CSV and Excel. */
export default function ReportsScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const [kind, setKind] = useState<ReportKind>('summary');
  const [deviceIds, setDeviceIds] = useState<number[]>([]);
  const [groupIds, setGroupIds] = useState<number[]>([]);
  const [period, setPeriod] = usePeriod(1);
  const { state, run, stop } = useReport();
  const file = useReportDownload();
  const request: ReportRequest = { kind, deviceId: deviceIds, groupId: groupIds, from: period.from, to: period.to };
  const chosen = deviceIds.length + groupIds.length > 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (chosen) void run(request);
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('reports.title')}</h1>
      </div>
      <form className="card" onSubmit={submit} aria-label={t('reports.title')}>
        <div className="form-grid">
          <label className="field">
            <span>{t('reports.kindLabel')}</span>
            <select value={kind} onChange={(e) => setKind(e.target.value as ReportKind)}>
              {REPORT_KINDS.map((k) => (
                <option key={k} value={k}>
                  {t(`reports.kind.${k}`)}
                </option>
              ))}
            </select>
          </label>
        </div>
        <DevicesPicker
          label={t('reports.devicesAndGroups')}
          value={{ deviceIds, groupIds }}
          onChange={(c) => {
            setDeviceIds(c.deviceIds);
            setGroupIds(c.groupIds);
          }}
        />
        <PeriodPicker value={period} onChange={setPeriod} />
        {!chosen && <p className="muted small">{t('reports.chooseHint')}</p>}
        <div className="form-actions">
          {(['csv', 'xlsx'] as const).map((format) => (
            <a
              key={format}
              className={chosen ? 'btn' : 'btn disabled'}
              aria-disabled={!chosen}
              href={chosen ? reportUrl(request, format) : undefined}
              download
              aria-busy={file.state.phase === 'loading' && file.state.format === format}
              onClick={(e) => {
                e.preventDefault();
                if (chosen && file.state.phase !== 'loading') void file.download(request, format);
              }}
            >
              {t(`reports.${format}`)}
            </a>
          ))}
          <button type="submit" className="btn btn-primary" disabled={!chosen || state.phase === 'loading'}>
            {t('reports.show')}
          </button>
        </div>
      </form>
      <div className="mt" aria-live="polite">
        {file.state.phase === 'loading' && (
          <p className="muted small" role="status">
            {t('reports.preparingFile')}
          </p>
        )}
        {file.state.phase === 'failed' && <ErrorState title={t('reports.downloadFailed')} error={file.state.error} />}
        {state.phase === 'loading' && (
          <div className="card stack" role="status">
            <div className="progress" aria-hidden="true">
              <span className="indeterminate" />
            </div>
            <p>
              {t('reports.progress', {
                size: f.number(state.bytes / 1024, 0),
                seconds: f.number((performance.now() - state.startedAt) / 1000, 0),
              })}{' '}
              <button type="button" className="btn btn-small" onClick={stop}>
                {t('reports.stop')}
              </button>
            </p>
          </div>
        )}
        {state.phase === 'failed' && <ErrorState error={state.error} retry={() => void run(request)} />}
        {state.phase === 'done' && (
          <>
            <p className="muted small">
              {t('reports.rows', { count: state.rows.length, shown: f.number(state.rows.length), seconds: f.number(state.ms / 1000, 1) })}
            </p>
            {state.request.kind === 'route' && (
              <RouteReportMap rows={state.rows as unknown as Position[]} from={state.request.from} to={state.request.to} />
            )}
            <ReportResults kind={state.request.kind} rows={state.rows} />
          </>
        )}
      </div>
    </div>
  );
}
