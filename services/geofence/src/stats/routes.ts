import { geofencesEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, unavailable, type Analytics, type App } from '@corridor/platform';
import type { GeofencesRepository } from '../geofences/repository';
import { queryDwellStats } from './dwell-stats';

const dwell = geofencesEndpoints[2];

/** GET /geofences/stats/dwell: dwell time per fence and day, for the compliance dashboards. */
export function statsRoutes(app: App, deps: { analytics: Analytics; repo: GeofencesRepository }): void {
  const query = queryDwellStats(deps.analytics);
  registerEndpoint(app, dwell, async (req) => {
    const q = req.query;
    const geofenceIds = q.kind?.length ? await deps.repo.ids({ kinds: q.kind, ids: q.geofenceId }) : q.geofenceId;
    let result;
    try {
      result = await query({
        from: new Date(q.from),
        to: new Date(q.to),
        geofenceIds,
        companyId: companyScope(req.identity!),
        timezone: q.timezone,
        limit: q.limit,
        offset: q.offset,
      });
    } catch (err) {
      throw unavailable('ClickHouse', err);
    }
    const names = new Map((await deps.repo.byIds([...new Set(result.rows.map((r) => r.geofenceId))])).map((r) => [r.id, r.name]));
    return {
      items: result.rows.map((r) => ({ ...r, geofenceName: names.get(r.geofenceId) ?? null })),
      total: result.total,
      limit: q.limit,
      offset: q.offset,
    };
  });
}
