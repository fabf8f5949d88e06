import type { IncidentScript } from './incidents';
import type { Fix, Truck } from './truck';

/**
 * One truck's reports as the simulator makes them, on whatever clock calls it (the simulator's
 * timers, or a test's own clock). Each call moves the truck on to the whole second at or before
 * `now` and, when `sending`, returns its fix stamped with that second: trackers stamp whole seconds
 * and the platform stores them so (position ids are per device and second), so a fix stamped with
 * the second but placed where the truck was some hundreds of milliseconds later moved farther than
 * its speed allows over its stamped time (issue 26). With time compressed (`timeScale` simulated
 * seconds per real second) the speed reported is the ground speed the fixes move at.
 * Returns undefined when not sending or when the script keeps the truck silent.
 */
export function truckReports(
  truck: Truck,
  script: IncidentScript | undefined,
  timeScale: number,
  start: number,
): (now: number, sending: boolean) => Fix | undefined {
  let last = Math.floor(start / 1000) * 1000;
  return (now, sending) => {
    const at = Math.max(last, Math.floor(now / 1000) * 1000);
    const mode = script?.step(truck, at);
    truck.advance(((at - last) / 1000) * timeScale, new Date(at));
    last = at;
    if (!sending || mode?.send === false) return undefined;
    const fix = truck.fix(new Date(at));
    const ground = timeScale === 1 ? fix : { ...fix, speedKph: fix.speedKph * timeScale };
    return mode ? mode.fix(ground) : ground;
  };
}
