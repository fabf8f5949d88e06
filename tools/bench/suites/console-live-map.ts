/** The console's live map with 2,000 trucks on a synthetic socket (apps/console/bench/live-map.ts; build the console first). */
export { default } from '../../../apps/console/bench/live-map';
