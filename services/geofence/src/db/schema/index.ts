export * from './geofence-schema';
export * from './geofences';
export * from './links';
export * from './events';
export * from './audit-log';
