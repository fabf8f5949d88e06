export * from './journey-schema';
export * from './routes';
export * from './journeys';
export * from './flags';
export * from './audit-log';
