export * from './identity-schema';
export * from './users';
export * from './api-tokens';
export * from './permissions';
export * from './audit-log';
export * from './server-settings';
