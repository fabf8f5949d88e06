export { build, geofenceEndpoints, type GeofenceDeps, type GeofenceService } from './app';
export { GeofenceConfig } from './config';
