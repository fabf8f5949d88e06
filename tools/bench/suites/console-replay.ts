/** Replay of a day of 10 s fixes (8,640) in the browser: first draw and frames while playing (apps/console/bench/replay.ts; build the console first). */
export { default } from '../../../apps/console/bench/replay';
