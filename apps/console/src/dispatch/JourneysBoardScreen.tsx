import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { JourneyFlagType, type Journey } from '@corridor/contracts/journeys';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { newFlagsKey, useNewFlags } from '../live/queries';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { useCompanies, useDeviceNames, useRoutes } from '../ui/lookups';
import { StatusPill } from '../ui/StatusPill';
import { Tabs } from '../ui/Tabs';
import { BOARD_TABS, journeyEndpoints, type BoardTab } from './journeys';

const LIMIT = 50;

/** The journeys board: active, flagged and completed journeys, filtered by route, country and flag type. */
export default function JourneysBoardScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const tab = (BOARD_TABS.includes(params.get('tab') as BoardTab) ? params.get('tab') : 'active') as BoardTab;
  const [routeId, setRouteId] = useState<number | undefined>();
  const [flagType, setFlagType] = useState<JourneyFlagType | undefined>();
  const [offset, setOffset] = useState(0);
  const routes = useRoutes();
  const companies = useCompanies();
  const deviceName = useDeviceNames();
  const { data: fresh } = useNewFlags();
  const [freshJourneys, setFreshJourneys] = useState<ReadonlySet<number>>(new Set());
  const query = { limit: LIMIT, offset, routeId: routeId ? [routeId] : undefined, flagType: flagType ? [flagType] : undefined };
  const list = useApiQuery(journeyEndpoints[tab], { query }, { refetchInterval: 30_000 });
  const flaggedCount = useApiQuery(journeyEndpoints.flagged, { query: { limit: 1000 } });

  // the flagged tab shows which journeys the new flags are on, and counts them as seen
  useEffect(() => {
    if (tab !== 'flagged' || !fresh.length) return;
    setFreshJourneys((cur) => new Set([...cur, ...fresh.map((e) => Number(e.journeyId))]));
    client.setQueryData(newFlagsKey, []);
  }, [tab, fresh, client]);

  const select = (k: BoardTab) => {
    setOffset(0);
    setParams({ tab: k }, { replace: true });
  };
  const columns: Column<Journey>[] = [
    { key: 'id', header: t('journeys.journey'), cell: (j) => <Link to={`/journeys/${j.id}`}>{t('journeys.number', { id: j.id })}</Link> },
    { key: 'truck', header: t('journeys.truck'), cell: (j) => `${deviceName(j.deviceId)}${j.truckPlate ? ` · ${j.truckPlate}` : ''}` },
    { key: 'route', header: t('journeys.route'), cell: (j) => j.routeName },
    { key: 'company', header: t('journeys.company'), cell: (j) => companies.name(j.companyId) },
    { key: 'state', header: t('journeys.state'), cell: (j) => <StatusPill value={j.state} /> },
    {
      key: 'flags',
      header: t('journeys.flags'),
      cell: (j) =>
        j.openFlags.length ? (
          <span className="row">
            {j.openFlags.map((ft) => (
              <span key={ft} className="pill pill-bad">
                {t(`flagType.${ft}`)}
              </span>
            ))}
            {freshJourneys.has(j.id) && <span className="pill pill-info">{t('journeys.new')}</span>}
          </span>
        ) : (
          <span className="muted">—</span>
        ),
    },
    { key: 'departure', header: t('journeys.departure'), cell: (j) => f.dateTime(j.actualDeparture ?? j.plannedDeparture) },
    {
      key: 'arrival',
      header: tab === 'completed' ? t('journeys.arrival') : t('journeys.plannedArrival'),
      cell: (j) => f.dateTime(j.actualArrival ?? j.plannedArrival),
    },
  ];
  const flaggedTotal = flaggedCount.data?.length ?? 0;

  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('journeys.title')}</h1>
        {may(user, journeyEndpoints.create) && (
          <Link className="btn btn-primary" to="/journeys/new">
            {t('journeys.create')}
          </Link>
        )}
      </div>
      <Tabs
        label={t('journeys.title')}
        selected={tab}
        onSelect={select}
        tabs={BOARD_TABS.map((k) => ({
          key: k,
          label: (
            <>
              {t(`journeys.tab.${k}`)}
              {k === 'flagged' && flaggedTotal > 0 && <span className="badge">{flaggedTotal}</span>}
            </>
          ),
        }))}
      />
      <div id={`panel-${tab}`} role="tabpanel" aria-labelledby={`tab-${tab}`}>
        <div className="filters">
          <label className="field">
            <span>{t('journeys.route')}</span>
            <select value={routeId ?? ''} onChange={(e) => (setOffset(0), setRouteId(Number(e.target.value) || undefined))}>
              <option value="">{t('common.all')}</option>
              {(routes.data ?? []).map((r) => (
                <option key={r.id} value={r.id}>
                  {r.name}
                </option>
              ))}
            </select>
          </label>
          {tab !== 'active' && (
            <label className="field">
              <span>{t('journeys.flagType')}</span>
              <select
                value={flagType ?? ''}
                onChange={(e) => (setOffset(0), setFlagType((e.target.value || undefined) as JourneyFlagType | undefined))}
              >
                <option value="">{t('common.all')}</option>
                {JourneyFlagType.options.map((ft) => (
                  <option key={ft} value={ft}>
                    {t(`flagType.${ft}`)}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <DataTable
          caption={t(`journeys.tab.${tab}`)}
          columns={columns}
          rows={list.data}
          rowKey={(j) => j.id}
          loading={list.isPending}
          error={list.error}
          retry={() => void list.refetch()}
          rowClass={(j) => (freshJourneys.has(j.id) ? 'issue' : undefined)}
          empty={{ title: t(`journeys.empty.${tab}`), hint: t(`journeys.emptyHint.${tab}`) }}
        />
        <Pager offset={offset} limit={LIMIT} count={list.data?.length ?? 0} onChange={setOffset} />
      </div>
    </div>
  );
}
