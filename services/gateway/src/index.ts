export { build, gatewayEndpoints, migrationsFolder, VERSION, type GatewayDeps, type GatewayService } from './app';
export { GatewayConfig } from './config';
export type { EmailChangedNotice, Notifier, PasswordResetNotice } from './password/notifier';
