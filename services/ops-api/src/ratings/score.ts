import type { CompanyRating, RatingComponents, RatingGrade, SanctionType } from '@corridor/contracts';
import type { CompanyFigures, Period } from './repository';

/** Component weights; a component without data (no deliveries) drops out and the rest are rescaled. */
const ratingWeights = { onTimeDelivery: 0.4, journeyFlags: 0.25, complaints: 0.2, sanctions: 0.15 } as const;

/** Severity points per sanction in force during the period. */
const sanctionPoints: Record<SanctionType, number> = { warning: 1, training: 1, probation: 2, fine: 2, suspension: 4, blacklist: 8 };

function gradeOf(score: number): RatingGrade {
  if (score >= 85) return 'A';
  if (score >= 70) return 'B';
  if (score >= 55) return 'C';
  if (score >= 40) return 'D';
  return 'E';
}

const round = (v: number, digits: number): number => Math.round(v * 10 ** digits) / 10 ** digits;

/** A company's rating for the period from its raw figures (pure: the tests check the arithmetic). */
export function rate(f: CompanyFigures, period: Period): CompanyRating {
  const onTimeScore = f.delivered > 0 ? f.onTime / f.delivered : null;
  const flagsScore = Math.exp(-(f.flags / Math.max(1, f.trucks)) / 5);
  const complaintsScore = Math.exp(-(f.complaintsUpheld + f.complaintsPending / 2) / 4);
  const points = f.sanctions.reduce((sum, s) => sum + (sanctionPoints[s.sanctionType as SanctionType] ?? 1), 0);
  const sanctionsScore = Math.exp(-points / 6);

  const parts: [keyof typeof ratingWeights, number | null][] = [
    ['onTimeDelivery', onTimeScore],
    ['journeyFlags', flagsScore],
    ['complaints', complaintsScore],
    ['sanctions', sanctionsScore],
  ];
  const present = parts.filter((p): p is [keyof typeof ratingWeights, number] => p[1] !== null);
  const totalWeight = present.reduce((s, [k]) => s + ratingWeights[k], 0);
  const weight = (k: keyof typeof ratingWeights, v: number | null) => (v === null ? 0 : round(ratingWeights[k] / totalWeight, 4));
  const score = round((100 * present.reduce((s, [k, v]) => s + ratingWeights[k] * v, 0)) / totalWeight, 1);

  const components: RatingComponents = {
    onTimeDelivery: {
      delivered: f.delivered,
      onTime: f.onTime,
      score: onTimeScore === null ? null : round(onTimeScore, 4),
      weight: weight('onTimeDelivery', onTimeScore),
    },
    journeyFlags: { flags: f.flags, trucks: f.trucks, score: round(flagsScore, 4), weight: weight('journeyFlags', flagsScore) },
    complaints: {
      upheld: f.complaintsUpheld,
      pending: f.complaintsPending,
      dismissed: f.complaintsDismissed,
      score: round(complaintsScore, 4),
      weight: weight('complaints', complaintsScore),
    },
    sanctions: { total: f.sanctions.length, points, score: round(sanctionsScore, 4), weight: weight('sanctions', sanctionsScore) },
  };
  return {
    companyId: f.companyId,
    companyName: f.name,
    score,
    grade: gradeOf(score),
    components,
    period: { from: period.from.toISOString(), to: period.to.toISOString() },
  };
}
