import { positionsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { PositionIntake } from './intake';

const [, pushEndpoint] = positionsEndpoints;

/** POST /api/positions: a JSON batch from an integration. */
export function positionRoutes(app: App, intake: PositionIntake): void {
  registerEndpoint(app, pushEndpoint, async (req) => {
    const fixes = req.body.positions.map((p) => ({
      uniqueId: p.uniqueId,
      position: {
        deviceId: p.uniqueId,
        fixTime: new Date(p.fixTime),
        valid: p.valid,
        latitude: p.latitude,
        longitude: p.longitude,
        speed: p.speed,
        course: p.course,
        altitude: p.altitude ?? null,
        attributes: p.accuracy != null ? { ...p.attributes, accuracy: p.accuracy } : p.attributes,
      },
    }));
    const published = await intake.accept(fixes, { protocol: 'json' });
    return { accepted: published.length, ids: published.map((p) => p.id) };
  });
}
