import { createAdapters, createGeocoder, createLogger, internalKeys, parseConfig, runService } from '@corridor/platform';
import { OpsApiConfig } from './config';
import { build } from './app';
import { notificationSettingsFrom } from './notification-rules/settings';
import { reportSettingsFrom } from './reports/settings';
import { documentsSettingsFrom } from './documents/settings';
import { deviceStateSettingsFrom } from './device-state/settings';
import { parserSettingsFrom } from './parsers/settings';

const config = parseConfig(OpsApiConfig);
const logger = createLogger('ops-api', config.LOG_LEVEL);

await runService(
  'ops-api',
  logger,
  async () => {
    const adapters = await createAdapters(config, logger, { dataDir: config.DATA_DIR, service: 'ops-api' });
    const svc = await build({
      ...adapters,
      logger,
      identitySecret: internalKeys(config),
      notificationRules: notificationSettingsFrom(config),
      reports: reportSettingsFrom(config),
      documents: documentsSettingsFrom(config),
      deviceState: deviceStateSettingsFrom(config),
      parsers: parserSettingsFrom(config),
      reportScheduleCheckMs: config.REPORT_SCHEDULE_CHECK_S * 1000,
      reportRunLeaseMs: config.REPORT_RUN_LEASE_S * 1000,
      noticeDeliveryCheckMs: config.NOTICE_DELIVERY_CHECK_MS,
      geocoder: createGeocoder(config, { logger: logger.child({ module: 'geocoder' }) }),
      complaintReopenDays: config.COMPLAINT_REOPEN_DAYS,
      journeyUrl: config.JOURNEY_URL,
      geofenceUrl: config.GEOFENCE_URL,
      certificates: {
        ...(config.CERTIFICATE_VERIFY_URL ? { verifyUrl: config.CERTIFICATE_VERIFY_URL } : {}),
        ...(config.CERTIFICATE_VALIDITY_DAYS ? { validityDays: config.CERTIFICATE_VALIDITY_DAYS } : {}),
      },
    });
    await svc.start();
    await svc.app.listen({ host: config.HOST, port: config.PORT });
    return {
      async close() {
        await svc.close();
        await adapters.close();
      },
    };
  },
  { metrics: { host: config.METRICS_HOST, port: config.METRICS_PORT } },
);
