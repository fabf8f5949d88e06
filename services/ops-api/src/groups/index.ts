import type { OpsModule } from '../module';
import { groupRoutes } from './routes';
import { groupsService } from './service';

/** Device groups: their service and routes; their tree is published at start for the other services. */
export const groupsModule: OpsModule<object, void> = (app, { base, life }) => {
  const groups = groupsService({ db: base.db, cache: base.cache, logger: base.logger.child({ module: 'groups' }) });
  groupRoutes(app, groups);
  life.onStart(() => groups.publish());
};
