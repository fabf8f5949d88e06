export { build, journeyEndpoints, type JourneyDeps, type JourneyOptions, type JourneyService } from './app';
export { JourneyConfig } from './config';
