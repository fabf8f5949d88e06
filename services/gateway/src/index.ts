export { build, gatewayEndpoints, VERSION, type GatewayDeps, type GatewayService } from './app';
export { GatewayConfig } from './config';
