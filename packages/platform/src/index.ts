export * from './config';
export * from './logger';
export * from './errors';
export * from './metrics';
export * from './app';
export * from './endpoint-routes';
export * from './consumer';
export * from './service-main';
export * from './identity';
export * from './references';
export * from './company-scope';
export * from './user-directory';
export * from './api-event';
export * from './device-references';
export { DeviceRegistryView, type DeviceRegistryViewOptions } from './device-registry-view';
export * from './cache-keys';
export * from './published-list';
export * from './setting-layers';
export * from './cache-locks';
export * from './adapters/index';
export type { Analytics } from './adapters/analytics';
export { createPgliteDb } from './adapters/db-pglite';
export { createPgDb } from './adapters/db-pg';
export { createClickHouseAnalytics } from './adapters/clickhouse';
export { KafkaBus } from './adapters/bus-kafka';
export { closeForced } from './adapters/kafka-consumer';
export { committedOffsets, topicOffsets, type PartitionOffsets } from './adapters/kafka-lag';
export { RedisCache } from './adapters/cache-redis';
export * from './clickhouse/positions';
export { touchTrackDays } from './clickhouse/track-touched';
export * from './clickhouse/events';
export * from './clickhouse/migration-render';
export * from './clickhouse/migration-files';
export { migrateAnalytics, pendingMigrations, type MigrateOptions, type MigrateResult, type MigrationProgress } from './clickhouse/migrate';
export { MIGRATIONS_TABLE, STEPS_TABLE, appliedMigrations } from './clickhouse/migration-records';
export * from './clickhouse/schema-check';
export { rawFramesTtlDays } from './clickhouse/raw-frames-ttl';
export {
  ALL_COMPANIES,
  histogramCountAbove,
  histogramCountAtLeast,
  histogramMinus,
  histogramQuantile,
  rollUpObservatoryDays,
  utcDay,
} from './clickhouse/observatory-rollup';
/** chDB is loaded lazily (its native library is ~540 MB and absent from container images). */
export const loadChdb = () => import('./adapters/clickhouse-chdb');
export * from './audit/audit-log-table';
export * from './audit/audit-trail';
export * from './bus-readiness';
export * from './geocoder/settings';
export * from './geocoder/geocoder';
export * from './geocoder/addressed';
export * from './package-dir';
export * from './retry';
