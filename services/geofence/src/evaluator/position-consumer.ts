import { PositionMessage, Topics } from '@corridor/contracts';
import { consumeValidated, type Bus, type Logger, type Subscription } from '@corridor/platform';
import type { PositionEvaluator } from './position-evaluator';

/** Every evaluator instance joins this group; positions.v1 partitions (by device id) are split among them. */
export const EVALUATOR_GROUP = 'geofence-evaluator';

export function startPositionConsumer(deps: { bus: Bus; logger: Logger; evaluator: PositionEvaluator }): Promise<Subscription> {
  return consumeValidated({
    bus: deps.bus,
    logger: deps.logger,
    groupId: EVALUATOR_GROUP,
    topic: Topics.positions,
    schema: PositionMessage,
    fromBeginning: true,
    handle: async (positions) => {
      await deps.evaluator.handle(positions);
    },
  });
}
