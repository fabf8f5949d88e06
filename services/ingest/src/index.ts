export { build, ingestEndpoints, type IngestDeps, type IngestService } from './app';
export { IngestConfig } from './config';
export { startIngestThreads, threadCount, type IngestThreads } from './threads/ingest-threads';
