import { journeysEndpoints } from '@corridor/contracts/journeys';
import { endpoint } from '../api/endpoint';

export const journeyEndpoints = {
  create: endpoint(journeysEndpoints, 'journeys.create'),
  active: endpoint(journeysEndpoints, 'journeys.active'),
  flagged: endpoint(journeysEndpoints, 'journeys.flagged'),
  completed: endpoint(journeysEndpoints, 'journeys.completed'),
  get: endpoint(journeysEndpoints, 'journeys.get'),
  cancel: endpoint(journeysEndpoints, 'journeys.cancel'),
  acknowledge: endpoint(journeysEndpoints, 'journeys.flags.acknowledge'),
  resolve: endpoint(journeysEndpoints, 'journeys.flags.resolve'),
};

export type BoardTab = 'active' | 'flagged' | 'completed';
export const BOARD_TABS: BoardTab[] = ['active', 'flagged', 'completed'];
