import type { Analytics, Logger } from '@corridor/platform';
import { computeTrackRuns } from '../clickhouse/report-track-runs';
import { periodicCheck } from '../periodic-check';

/** Device-days a query computes; a look goes on while a query finds this many (a backlog, or the first look after the migration). */
const ROUND = 2_000;

/**
 * The background work that keeps the reports' stored runs fresh (clickhouse/report-track-runs.ts):
 * every look computes the runs of every ended day touched since its runs were computed, 2,000
 * device-days a query, and logs how many. Any instance may look: two computing one day write the
 * same row twice, which the table keeps once (ReplacingMergeTree on its version).
 */
export function trackRunsComputer(analytics: Analytics, logger: Logger) {
  const compute = computeTrackRuns(analytics);
  return periodicCheck(
    async () => {
      const started = performance.now();
      let total = 0;
      for (let n = ROUND; n >= ROUND; total += n) n = await compute({ limit: ROUND });
      if (total) logger.info({ deviceDays: total, ms: Math.round(performance.now() - started) }, 'reports: stored runs computed');
    },
    logger,
    'reports stored runs',
  );
}
