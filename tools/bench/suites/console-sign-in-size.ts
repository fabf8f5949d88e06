/** The console's sign-in route JavaScript, gzipped (apps/console/bench/sign-in-size.ts; build the console first). */
export { default } from '../../../apps/console/bench/sign-in-size';
