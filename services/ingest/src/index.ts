export { build, ingestEndpoints, type IngestDeps, type IngestService } from './app';
export { IngestConfig } from './config';
