import type { ComputedAttributesService } from '../computed-attributes/service';
import type { OpsModule } from '../module';
import { objectLinkRoutes } from './routes';
import { objectLinksService } from './service';

/** Links between objects (Traccar's permissions): their service and routes. */
export const objectLinksModule: OpsModule<{ computed: ComputedAttributesService }, void> = (app, { base, computed }) => {
  // a computed attribute applies to the devices linked to it: its published definition changes with its links
  objectLinkRoutes(app, objectLinksService({
    db: base.db,
    changed: async (kinds) => {
      if (kinds.has('attributeId')) await computed.publish();
    },
  }));
};
