import { z } from 'zod';

/**
 * Deviation thresholds with their defaults. Parse `{}` for the defaults; per-route and per-journey
 * overrides are partial objects of the same schema merged over them by resolveThresholds.
 */
export const JourneyThresholds = z.object({
  offCorridorMeters: z.number().min(0).default(500).describe('metres beyond the route width before a fix counts as off corridor'),
  offCorridorMinFixes: z.int().min(1).default(3).describe('consecutive-excursion fixes beyond the threshold needed to open'),
  offCorridorMinSeconds: z.number().min(0).default(120).describe('seconds beyond the threshold needed to open'),
  offCorridorClearFactor: z.number().min(0).max(1).default(0.8).describe('clears once within this fraction of the width'),
  stopSpeedKmh: z.number().min(0).default(5).describe('below this speed the truck counts as stopped'),
  unauthorizedStopMinutes: z.number().min(0).default(5),
  overspeedSeconds: z.number().min(0).default(30),
  overspeedToleranceKmh: z.number().min(0).default(0).describe('km/h allowed above the segment limit'),
  signalLossMinutes: z.number().positive().default(10),
  signalLossEscalateMinutes: z.number().positive().default(120),
  backtrackMeters: z.number().positive().default(2000).describe('metres of lost progress that count as wrong direction'),
  backtrackMinFixes: z.int().min(1).default(3),
  backtrackResumeMeters: z.number().positive().default(500).describe('forward progress from the lowest point that clears it'),
  lateEtaToleranceMinutes: z.number().min(0).default(60),
  lateEtaClearMarginMinutes: z.number().min(0).default(5).describe('clears at tolerance minus this margin, so noise cannot flap'),
});
export type JourneyThresholds = z.infer<typeof JourneyThresholds>;
/** An override layer: any subset of the thresholds. */
export type ThresholdOverrides = z.input<typeof JourneyThresholds>;

/** Defaults, then each layer in order (e.g. route overrides, then journey overrides); undefined values do not override. */
export function resolveThresholds(...layers: (ThresholdOverrides | undefined | null)[]): JourneyThresholds {
  const merged: Record<string, unknown> = {};
  for (const layer of layers) {
    if (!layer) continue;
    for (const [key, value] of Object.entries(layer)) if (value !== undefined) merged[key] = value;
  }
  return JourneyThresholds.parse(merged);
}

export const DEFAULT_THRESHOLDS: JourneyThresholds = Object.freeze(JourneyThresholds.parse({}));
