import { publishUserDirectory, type Cache, type Logger } from '@corridor/platform';
import type { UsersRepository } from './repository';

/**
 * Publishes every user's id and company to the shared cache (cacheKeys.userDirectory), where the
 * other services check the user ids their requests carry (notification recipients, filters). Runs
 * at start and after every committed change to users; publishes run one after another, so the last
 * one reads the latest state. A failure is logged: the next change or start publishes again.
 */
export function userDirectoryPublisher(deps: { repo: UsersRepository; cache: Cache; logger: Logger }): () => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  return () => {
    chain = chain
      .catch(() => undefined)
      .then(async () => publishUserDirectory(deps.cache, await deps.repo.directory()))
      .catch((err: unknown) => deps.logger.warn({ err }, 'user directory not published; the next change or start publishes it'));
    return chain;
  };
}
