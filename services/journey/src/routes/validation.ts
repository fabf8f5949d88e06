import CheapRuler from 'cheap-ruler';
import { ROUTE_MAX_VERTICES, type RouteInput } from '@corridor/contracts';
import { AppError } from '@corridor/platform';
import { concatenateLegs, type LonLat } from '../corridor/route-definition';

export interface FieldProblem {
  in: 'body';
  path: string;
  message: string;
}

/** A 400 in the shape fastify's schema validation answers: the message and details name each field. */
export function fieldError(problems: FieldProblem[]): AppError {
  const first = problems[0];
  return new AppError('VALIDATION_FAILED', first ? `body.${first.path}: ${first.message}` : 'Invalid request', problems);
}

const problem = (path: string, message: string): FieldProblem => ({ in: 'body', path, message });
const MAX_LENGTH_M = 10_000_000;

/**
 * The rules the contract's schema cannot express: exactly one of line / legs, a line with length,
 * legs that join up (each starts within the width of where the previous one ended), one speed
 * limit or one per segment, at most one origin and one destination area. Returns the joined line.
 */
export function checkRouteInput(input: RouteInput): LonLat[] {
  if ((input.line === null) === (input.legs === null))
    throw fieldError([problem(input.line ? 'legs' : 'line', 'give exactly one of line or legs')]);
  const field = input.line ? 'line' : 'legs';
  const line: LonLat[] = input.line ? input.line.map(([lon, lat]) => [lon, lat]) : concatenateLegs(input.legs ?? []);
  const problems: FieldProblem[] = [];
  if (line.length > ROUTE_MAX_VERTICES) problems.push(problem(field, `at most ${ROUTE_MAX_VERTICES} vertices in all`));
  const ruler = new CheapRuler(line.reduce((s, p) => s + p[1], 0) / line.length, 'meters');
  const lengthM = ruler.lineDistance(line);
  if (lengthM < 1) problems.push(problem(field, 'the line has no length (its vertices coincide)'));
  if (lengthM > MAX_LENGTH_M) problems.push(problem(field, 'longer than 10,000 km'));
  input.legs?.forEach((leg, i) => {
    const previous = input.legs?.[i - 1];
    if (!previous) return;
    const gap = ruler.distance(previous[previous.length - 1]!, leg[0]!);
    if (gap > input.widthM)
      problems.push(problem(`legs.${i}`, `starts ${Math.round(gap)} m from the end of leg ${i - 1}, more than the width`));
  });
  const segments = line.length - 1;
  const limits = input.speedLimitsKmh.length;
  if (limits !== 1 && limits !== segments) {
    problems.push(problem('speedLimitsKmh', `expected 1 value or ${segments} (one per segment), got ${limits}`));
  }
  for (const kind of ['origin', 'destination'] as const) {
    if (input.stopAreas.filter((a) => a.kind === kind).length > 1) problems.push(problem('stopAreas', `at most one ${kind} area`));
  }
  if (problems.length) throw fieldError(problems);
  return line;
}
