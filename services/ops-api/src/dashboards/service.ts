import type { ComplianceCountry, ComplianceDashboard } from '@corridor/contracts';
import type { Clock } from '@corridor/platform';
import type { EventFigures } from './event-figures';
import { periodJson, resolvePeriod } from './period';
import type { DashboardRepository } from './repository';

/**
 * A country's compliance dashboard. Company figures cover the companies registered in the country
 * (their trucks are their devices); border dwell covers the fences on the country's side. Each
 * figure says which period it covers; all are computed on request (no cache).
 */
export function dashboardService(deps: { repo: DashboardRepository; events: EventFigures; clock: Clock }) {
  const { repo, events, clock } = deps;

  return {
    async dashboard(country: ComplianceCountry, q: { from?: string; to?: string; top: number }): Promise<ComplianceDashboard> {
      const period = resolvePeriod(q, clock.now());
      const covered = periodJson(period);
      const companies = await repo.companiesIn(country);
      const companyIds = companies.map((c) => c.id);
      const fleet = await repo.devicesOf(companyIds);
      const deviceIds = fleet.map((d) => d.id);

      const [journeys, flags, flagsByDevice, dwell, certificates, open, complaints, sanctions] = await Promise.all([
        events.journeys(deviceIds, period),
        events.flagsByTypeAndWeek(deviceIds, period),
        events.flagsByDevice(deviceIds, period),
        events.borderDwell(country, period),
        repo.certificates(companyIds, period),
        repo.complaintsOpen(companyIds, period),
        repo.complaintsAgainst(companyIds, period),
        repo.sanctionsRecorded(companyIds, period),
      ]);

      const flagsByCompany = new Map<number, number>();
      for (const d of fleet) {
        const n = flagsByDevice.get(d.id);
        if (n && d.companyId !== null) flagsByCompany.set(d.companyId, (flagsByCompany.get(d.companyId) ?? 0) + n);
      }
      const violations = companies
        .map((c) => {
          const f = flagsByCompany.get(c.id) ?? 0;
          const cm = complaints.get(c.id) ?? 0;
          const s = sanctions.get(c.id) ?? 0;
          return { companyId: c.id, name: c.name, flags: f, complaints: cm, sanctions: s, total: f + cm + s };
        })
        .filter((v) => v.total > 0)
        .sort((a, b) => b.total - a.total || a.companyId - b.companyId)
        .slice(0, q.top);

      return {
        country,
        period: covered,
        generatedAt: clock.now().toISOString(),
        companies: companies.length,
        activeJourneys: {
          period: covered,
          active: journeys.active,
          withActivity: journeys.withActivity,
          trucksReporting: journeys.trucksReporting,
        },
        flagsByTypeAndWeek: { period: covered, total: flags.reduce((s, f) => s + f.count, 0), items: flags },
        certificates: {
          period: covered,
          pending: (certificates.applied ?? 0) + (certificates.submitted ?? 0),
          approved: certificates.approved ?? 0,
          rejected: certificates.rejected ?? 0,
        },
        complaintsOpen: { period: covered, open: open.open, underReview: open.underReview, total: open.open + open.underReview },
        borderDwell: { period: covered, items: dwell },
        companiesWithMostViolations: { period: covered, items: violations },
      };
    },
  };
}
export type DashboardService = ReturnType<typeof dashboardService>;
