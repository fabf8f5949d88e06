/**
 * `node --import ./kafka-1x-hooks.ts`: every import of @platformatic/kafka (the bus's, in
 * packages/platform) resolves to @platformatic/kafka 1.x, installed in the tools package under the
 * name @platformatic/kafka-1, so suites/kafka-clients.ts measures the same bus on both lines of the
 * client in one run. Benchmarks only.
 */
import { registerHooks } from 'node:module';

const NAME = '@platformatic/kafka';
const here = import.meta.url;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === NAME || specifier.startsWith(`${NAME}/`)) {
      return nextResolve(`${NAME}-1${specifier.slice(NAME.length)}`, { ...context, parentURL: here });
    }
    return nextResolve(specifier, context);
  },
});
