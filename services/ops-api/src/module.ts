import type { Analytics, App, Bus, Cache, Clock, Logger, Orm } from '@corridor/platform';

/** What every ops-api module may use: the adapters and the logger. */
export interface OpsBase {
  db: Orm;
  bus: Bus;
  cache: Cache;
  analytics: Analytics;
  clock: Clock;
  logger: Logger;
}

/** Work a module does beside its routes (consumers, timers, caches it publishes): started and closed with ops-api. */
interface Lifecycle {
  /** Runs at start, in the order the modules are registered. */
  onStart(fn: () => unknown): void;
  /** Runs at close, in the reverse order, before the HTTP app closes (afterApp: after it, once its last requests are answered). */
  onClose(fn: () => unknown, when?: { afterApp: boolean }): void;
}

/**
 * An ops-api module (CONVENTIONS 23): a fastify plugin, in its own encapsulated context, that
 * builds its services, registers its routes and gives back what the modules after it use. It
 * knows the modules it is handed and nothing above it: app.ts lists every module once.
 */
export type OpsModule<Options, Provides> = (app: App, opts: Options & { base: OpsBase; life: Lifecycle }) => Promise<Provides> | Provides;

/** Registers ops-api's modules on the app, one fastify plugin each, and runs their start and close work. */
export function opsModules(app: App, base: OpsBase) {
  const starts: (() => unknown)[] = [];
  const closes: (() => unknown)[] = [];
  const afterApp: (() => unknown)[] = [];
  const life: Lifecycle = {
    onStart: (fn) => void starts.push(fn),
    onClose: (fn, when) => void (when?.afterApp ? afterApp : closes).unshift(fn),
  };
  function register<Provides>(module: OpsModule<object, Provides>): Promise<Provides>;
  function register<Options extends object, Provides>(module: OpsModule<Options, Provides>, opts: Options): Promise<Provides>;
  async function register<Options extends object, Provides>(module: OpsModule<Options, Provides>, opts?: Options): Promise<Provides> {
    let provided: Provides | undefined;
    const plugin = async (scope: App) => {
      provided = await module(scope, { ...(opts as Options), base, life });
    };
    Object.defineProperty(plugin, 'name', { value: module.name }); // fastify's plugin tree (app.printPlugins()) names it
    await app.register(plugin);
    return provided as Provides;
  }
  return {
    register,
    async start() {
      for (const fn of starts) await fn();
    },
    /** Stops the modules' work, closes the HTTP app, then what its last requests needed. */
    async close() {
      for (const fn of closes) await fn();
      await app.close();
      for (const fn of afterApp) await fn();
    },
  };
}
