/**
 * Ingest in a process of its own, for test/open-file-limit.test.ts to start under a low
 * `ulimit -n`: test adapters of the kind named by argv[2] (embedded, or the real parts of the
 * environment), the API, the OsmAnd port, the GT06 port and /metrics on ephemeral ports. Logs (pino, info)
 * go to stdout; one line {"ports":{...}} says where it listens. SIGTERM closes it.
 */
import { createLogger, createMetricsApp } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, type AdapterKind } from '@corridor/platform/testing/test-adapters';
import { build } from '../src/app';
import { registryEntry } from './test-device';

const [kind = 'embedded', deviceId = '1', imei = '359710049000001'] = process.argv.slice(2);
const adapters = await createTestAdapters(kind as AdapterKind);
const logger = createLogger('ingest', 'info');
const svc = await build({ ...adapters, logger, identitySecret: TEST_IDENTITY_SECRET });
await svc.start();
svc.registry.apply(registryEntry(Number(deviceId), imei));
const host = '127.0.0.1';
const api = new URL(await svc.app.listen({ host, port: 0 })).port;
const osmand = new URL(await svc.osmand.listen({ host, port: 0 })).port;
const gt06 = await svc.ports.tcp.gt06.listen(0, host);
// /metrics has a listener of its own, as main.ts opens it on METRICS_PORT
const metricsApp = createMetricsApp({ name: 'ingest', logger });
const metrics = new URL(await metricsApp.listen({ host, port: 0 })).port;
void svc.ports.fdBudget.size; // sized with the stores and every listener open, as ports.listen does
process.stdout.write(`${JSON.stringify({ ports: { api: Number(api), osmand: Number(osmand), gt06, metrics: Number(metrics) } })}\n`);

process.once('SIGTERM', () => {
  void (async () => {
    await metricsApp.close();
    await svc.close();
    await adapters.close();
    process.exit(0);
  })();
});
