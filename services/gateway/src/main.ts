import { createLogger, parseConfig, runService } from '@corridor/platform';
import { GatewayConfig } from './config';
import { build } from './app';

const config = parseConfig(GatewayConfig);
const logger = createLogger('gateway', config.LOG_LEVEL);

await runService('gateway', logger, async () => {
  const svc = await build({ logger, config });
  await svc.start();
  await svc.app.listen({ host: config.HOST, port: config.PORT });
  return { close: () => svc.close() };
});
