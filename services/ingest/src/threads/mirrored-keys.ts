import { cacheKeys } from '@corridor/platform';
import { TRACK_STATE_PREFIX } from '../positions/track-store';

const prefixOf = (key: (deviceId: number) => string): string => key(0).slice(0, -1);

/**
 * The cache keys an ingest thread reads for each fix or device on the one-process stack (its track
 * state, a user's accumulators set): kept in the thread and told of other writers' changes by the
 * main thread (thread-bridge.ts `mirrored`), so a fix's ack does not wait for the main thread to
 * answer a read.
 */
export const MIRRORED_KEYS = [TRACK_STATE_PREFIX, prefixOf(cacheKeys.accumulatorsSet)];

/**
 * The protocol bindings, mirrored whole (thread-bridge.ts `mirroredWhole`): the thread knows that a
 * device never seen is unbound without asking the main thread, so a first login waits for nothing
 * the main thread does (identity.ts writes the claim without waiting for it).
 */
export const MIRRORED_WHOLE = [prefixOf(cacheKeys.deviceProtocol)];
