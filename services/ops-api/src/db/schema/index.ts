export * from './ops-schema';
export * from './devices';
