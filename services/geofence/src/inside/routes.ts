import { geofencesEndpoints } from '@corridor/contracts';
import { companyScope, notFound, registerEndpoint, unavailable, type App, type Cache, type Clock } from '@corridor/platform';
import type { GeofencesRepository } from '../geofences/repository';
import { readInside } from './inside-sets';

const inside = geofencesEndpoints[9];

/** GET /geofences/{id}/inside: devices inside the fence now, from the evaluators' inside-sets. */
export function insideRoutes(app: App, deps: { cache: Cache; clock: Clock; repo: GeofencesRepository }): void {
  registerEndpoint(app, inside, async (req) => {
    const { id } = req.params;
    if (!(await deps.repo.get(id))) throw notFound('Geofence', id);
    const scope = companyScope(req.identity!);
    let members;
    try {
      members = await readInside(deps.cache, id);
    } catch (err) {
      throw unavailable('cache', err);
    }
    const visible = members
      .filter((m) => scope === undefined || m.entry.companyId === scope)
      .sort((a, b) => a.entry.enteredAt - b.entry.enteredAt || a.deviceId - b.deviceId);
    const now = deps.clock.now().getTime();
    const { limit, offset } = req.query;
    return {
      items: visible.slice(offset, offset + limit).map((m) => ({
        deviceId: m.deviceId,
        enteredAt: new Date(m.entry.enteredAt).toISOString(),
        dwellSeconds: Math.max(0, (now - m.entry.enteredAt) / 1000),
      })),
      total: visible.length,
      limit,
      offset,
    };
  });
}
