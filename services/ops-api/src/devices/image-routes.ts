import { fileTypeFromBuffer } from 'file-type';
import { devicesExtraEndpoints } from '@corridor/contracts';
import { companyScope, registerEndpoint, unavailable, type App, type Orm } from '@corridor/platform';
import { audit } from '../audit/audit';
import type { ObjectStorage } from '../documents/storage';
import { invalidField } from '../resources/pg-errors';
import type { DevicesService } from './service';

const imageEndpoint = devicesExtraEndpoints.find((e) => e.id === 'devices.image')!;

/** The largest picture kept (Traccar clients send photos scaled for a marker or a card). */
const MAX_IMAGE_BYTES = 1024 * 1024;
/** The image types kept, by what the bytes are (the declared type is not trusted), and the file extension each gets. */
const IMAGE_TYPES: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * POST /devices/{id}/image (Traccar's device picture): the body is the image; it is kept in the
 * document storage under device-images/<id>/device.<ext>, and its file name answered as text.
 */
export function deviceImageRoutes(app: App, deps: { db: Orm; devices: DevicesService; storage: ObjectStorage }): void {
  void app.register(async (scope) => {
    scope.addContentTypeParser(/^image\//, { parseAs: 'buffer', bodyLimit: MAX_IMAGE_BYTES }, (_req, body, done) => done(null, body));
    registerEndpoint(scope as App, imageEndpoint, async (req, reply) => {
      const who = req.identity!;
      const device = await deps.devices.get(req.params.id, companyScope(who));
      const bytes = req.body as unknown;
      if (!Buffer.isBuffer(bytes) || bytes.length === 0)
        throw invalidField('body', 'send the image itself as the body, with an image/* content type');
      const detected = await fileTypeFromBuffer(bytes);
      const ext = detected && IMAGE_TYPES[detected.mime];
      if (!ext) throw invalidField('body', `not a PNG, JPEG, GIF or WebP image${detected ? ` (the bytes are ${detected.mime})` : ''}`);
      const name = `device.${ext}`;
      try {
        await deps.storage.put(`device-images/${device.id}/device-${ext}`, bytes, detected.mime);
      } catch (err) {
        throw unavailable('Document storage', err);
      }
      await audit.record(deps.db, who, {
        action: 'device.image',
        entityType: 'device',
        entityId: device.id,
        companyId: device.companyId,
        after: { image: name, bytes: bytes.length },
        requestId: req.id,
      });
      return reply.type('text/plain').send(name);
    });
  });
}
