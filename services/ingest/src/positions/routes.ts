import { positionsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import { admitHttp } from '../http/admission';
import type { PositionIntake } from './intake';
import type { IntakeGate } from './intake-gate';

const [, pushEndpoint] = positionsEndpoints;

/** POST /api/positions: a JSON batch from an integration (through the intake gate: 503 with Retry-After when full). */
export function positionRoutes(app: App, intake: PositionIntake, gate: IntakeGate): void {
  registerEndpoint(app, pushEndpoint, async (req, reply) => {
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
    const published = await admitHttp(gate, Math.max(1, fixes.length), reply, () => intake.accept(fixes, { protocol: 'json' }));
    return { accepted: published.length, ids: published.map((p) => p.id) };
  });
}
