/**
 * When a position jumps instead of moving. A jump (a bad fix, a tracker carried on a trailer while
 * switched off, a replayed or scripted simulator) is a gap in the track: reports leave it out of
 * the distance driven (and so out of average speeds) and report it as a gap. One rule for the
 * reports folded in ops-api (isJump) and those summed in the store (jumpSql), so both agree leg for
 * leg, and the trips, stops, summary and route reports and their files with them.
 *
 * A leg between two consecutive fixes of a device is a jump when it is longer than the vehicle can
 * have driven in the time between them, allowing POSITION_ERROR_M for the error of its two fixes:
 *
 *   reach = min(ceiling, faster end + ACCELERATION × t / 2) × t
 *
 * - The speed each fix reports (measured by the receiver, not derived from positions) bounds the
 *   vehicle's speed at either end. In between it can at most have gained speed for half the time
 *   and lost it again: its speed over the leg stays under the faster end's plus ACCELERATION × t/2.
 *   So between two fixes seconds apart a truck reporting 72 km/h cannot have covered 40 m a
 *   second (the demo's live trips once summed such legs into a 143.9 km/h average under a 72.1
 *   km/h top speed), while fixes minutes apart leave room for any drive in between.
 * - The ceiling (REPORT_MAX_SPEED, default 200 km/h) bounds every leg however far apart its fixes
 *   are (a data gap of an hour). When neither fix reports a speed (0 at both ends: a device that
 *   does not measure speed, or one stopped at both), the ceiling alone bounds the leg: zeros are
 *   no evidence that it stood still in between.
 *
 * With every driven leg within its faster end's speed (fixes seconds apart) a trip's average, its
 * distance driven over its time, stays under its top speed (trips-stops.test.ts, the property).
 */

/** Metres of position error allowed over a leg: two fixes' typical horizontal error (about 15 m each, 95%). */
const POSITION_ERROR_M = 30;

/**
 * m/s²: the highest speed gain an ordinary road vehicle sustains (0-54 km/h in 15 s; a loaded
 * truck manages about half). Braking faster shortens the leg, so only the gain bounds it.
 */
const ACCELERATION = 1;

const KNOTS_PER_MPS = 3600 / 1852;

/** Metres per second of a speed in knots. */
export const mpsOfKnots = (knots: number): number => knots / KNOTS_PER_MPS;

/**
 * Whether a leg of `metres` over `ms` milliseconds between fixes reporting `speedA` and `speedB`
 * knots is a jump, for a highest plausible speed of `maxSpeedKnots`.
 */
export function isJump(metres: number, ms: number, speedA: number, speedB: number, maxSpeedKnots: number): boolean {
  const s = Math.max(0, ms) / 1000;
  const ceiling = mpsOfKnots(maxSpeedKnots);
  const faster = Math.max(speedA, speedB);
  const bound = faster > 0 ? Math.min(ceiling, mpsOfKnots(faster) + (ACCELERATION * s) / 2) : ceiling;
  return metres > bound * s + POSITION_ERROR_M;
}

/**
 * The same test in ClickHouse SQL, over a leg in metres, its milliseconds and its two fixes'
 * speeds in knots (Float64 or Int64 expressions), and the query parameter `maxMps` (Float64,
 * mpsOfKnots of the highest plausible speed).
 */
export function jumpSql(metres: string, ms: string, speedA: string, speedB: string): string {
  const s = `(greatest(0, ${ms}) / 1000)`;
  const faster = `greatest(${speedA}, ${speedB})`;
  const bound = `if(${faster} > 0, least({maxMps:Float64}, ${faster} / ${KNOTS_PER_MPS} + ${ACCELERATION / 2} * ${s}), {maxMps:Float64})`;
  return `(${metres} > ${bound} * ${s} + ${POSITION_ERROR_M})`;
}
