export { build, opsApiEndpoints, migrationsFolder, type OpsApiDeps, type OpsApiService } from './app';
export { OpsApiConfig } from './config';
