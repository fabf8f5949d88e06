import type { DevicesModule } from '../devices';
import type { OpsModule } from '../module';
import { commandRoutes } from './routes';
import { commandsService, type CommandsService } from './service';

/** Device commands (saved, sent, queued): their service (the notification rules send saved ones) and routes. */
export const commandsModule: OpsModule<{ devices: DevicesModule }, CommandsService> = (app, { base, devices }) => {
  const commands = commandsService({
    db: base.db,
    bus: base.bus,
    devices: devices.service,
    latest: devices.latest,
    logger: base.logger.child({ module: 'commands' }),
  });
  commandRoutes(app, commands);
  return commands;
};
