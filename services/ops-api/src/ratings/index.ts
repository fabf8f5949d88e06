import type { Subscription } from '@corridor/platform';
import type { OpsModule } from '../module';
import { startFlagConsumer } from './flag-consumer';
import { ratingRoutes } from './routes';
import { ratingsRepository } from './repository';
import { ratingsService } from './service';

/** Ratings: their routes, and the consumer of journey flags that rates the drivers they name. */
export const ratingsModule: OpsModule<object, void> = (app, { base, life }) => {
  ratingRoutes(app, ratingsService({ repo: ratingsRepository(base.db), clock: base.clock }));
  let flags: Subscription | undefined;
  life.onStart(async () => {
    flags = await startFlagConsumer({ bus: base.bus, db: base.db, logger: base.logger });
  });
  life.onClose(() => flags?.stop());
};
