export { build, journeyEndpoints, type JourneyDeps, type JourneyService } from './app';
export { JourneyConfig } from './config';
