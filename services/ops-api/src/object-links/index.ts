import type { ComputedAttributesService } from '../computed-attributes/service';
import type { MaintenanceService } from '../maintenance/service';
import type { OpsModule } from '../module';
import { objectLinkRoutes } from './routes';
import { objectLinksService } from './service';

/** Links between objects (Traccar's permissions): their service and routes. */
export const objectLinksModule: OpsModule<{ computed: ComputedAttributesService; maintenance: MaintenanceService }, void> = (
  app,
  { base, computed, maintenance },
) => {
  // a computed attribute and a maintenance apply to the devices linked to them: their published lists change with their links
  objectLinkRoutes(
    app,
    objectLinksService({
      db: base.db,
      changed: async (kinds) => {
        if (kinds.has('attributeId')) await computed.publish();
        if (kinds.has('maintenanceId')) await maintenance.publish();
      },
    }),
  );
};
