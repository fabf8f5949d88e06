import type { ServiceName } from '@corridor/contracts';
import type { GatewayConfig } from '../config';

export type Upstreams = Record<Exclude<ServiceName, 'gateway'>, string>;

export const upstreamsFrom = (c: GatewayConfig): Upstreams => ({
  ingest: c.INGEST_URL,
  journey: c.JOURNEY_URL,
  geofence: c.GEOFENCE_URL,
  'ops-api': c.OPS_API_URL,
});
