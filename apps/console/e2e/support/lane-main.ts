import { startLaneStack } from './lane-stack';

/**
 * A browser lane's stack in a process of its own (global-setup.ts starts one per lane after the
 * first: chDB binds one data directory per process, so two stacks cannot share one). It reads the
 * gateway's OpenID settings and what the tests know of the provider from LANE_GATEWAY_ENV and
 * LANE_OPENID (JSON), sends its lane over IPC once the stack listens, and closes the stack when
 * the parent disconnects (its teardown, or its death) or sends SIGTERM, even while still starting.
 */
let stop: (() => void) | undefined;
const stopped = new Promise<void>((resolve) => (stop = resolve));
process.once('disconnect', () => stop!());
process.once('SIGTERM', () => stop!());

const gatewayEnv = JSON.parse(process.env.LANE_GATEWAY_ENV ?? '{}') as Record<string, string>;
const openId = JSON.parse(process.env.LANE_OPENID ?? 'null') as Parameters<typeof startLaneStack>[1];
const started = await startLaneStack(gatewayEnv, openId);
if (process.connected) process.send!({ lane: started.lane });
await stopped;
try {
  await started.close();
  process.exit(0);
} catch (err) {
  process.stderr.write(`[browser lane] closing the stack failed: ${String(err)}\n`);
  process.exit(1);
}
