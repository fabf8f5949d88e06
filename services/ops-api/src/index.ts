export { build, opsApiEndpoints, migrationsFolder, type OpsApiDeps, type OpsApiService } from './app';
export { OpsApiConfig } from './config';
export { DeviceStateEnv, deviceStateSettingsFrom, type DeviceStateSettings } from './device-state/settings';
