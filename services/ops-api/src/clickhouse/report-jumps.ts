/**
 * When a position jumps instead of moving: a leg between two consecutive fixes of a device longer
 * than the highest plausible speed covers in the time between them, allowing JUMP_SLACK_M for the
 * error of either fix. A jump (a bad fix, a tracker carried on a trailer while switched off, a
 * replayed or scripted simulator) is a gap in the track: reports leave it out of the distance
 * driven (and so out of average speeds) and report it as a gap. One rule for the reports folded in
 * ops-api (isJump) and those summed in the store (jumpSql), so both agree leg for leg.
 */
const JUMP_SLACK_M = 100;

const KNOTS_PER_MPS = 3600 / 1852;

/** Metres per second of a speed in knots. */
export const mpsOfKnots = (knots: number): number => knots / KNOTS_PER_MPS;

/** Whether a leg of `metres` over `ms` milliseconds is a jump for a highest plausible speed of `maxSpeedKnots`. */
export const isJump = (metres: number, ms: number, maxSpeedKnots: number): boolean =>
  metres > mpsOfKnots(maxSpeedKnots) * (Math.max(0, ms) / 1000) + JUMP_SLACK_M;

/**
 * The same test in ClickHouse SQL, over a leg in metres and its milliseconds (Float64 or Int64
 * expressions) and the query parameter `maxMps` (Float64, mpsOfKnots of the highest plausible speed).
 */
export const jumpSql = (metres: string, ms: string): string =>
  `(${metres} > {maxMps:Float64} * (greatest(0, ${ms}) / 1000) + ${JUMP_SLACK_M})`;
