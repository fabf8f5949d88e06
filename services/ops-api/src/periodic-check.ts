import type { Logger } from '@corridor/platform';

/**
 * Runs `check` every `everyMs`, one check at a time (a check still running when the next is due
 * is not overlapped); a failed check is logged as `what` and the next one runs as usual. `stop`
 * waits for the check under way.
 */
export function periodicCheck(check: () => Promise<unknown>, logger: Logger, what: string) {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  return {
    start(everyMs: number): void {
      timer = setInterval(() => {
        if (running) return;
        running = check()
          .catch((err: unknown) => logger.error({ err }, `${what}: check failed`))
          .finally(() => (running = undefined));
      }, everyMs);
      timer.unref();
    },
    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      await running;
    },
  };
}
