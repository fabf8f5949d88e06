import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * The serious and critical accessibility problems axe-core finds on the page as it is now, one line
 * each ("rule: n nodes, first at selector"). The map's canvas is left out: what it draws is told by
 * the map's own label and the lists beside it.
 */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  // evaluated through the browser's debugging protocol: the console's Content-Security-Policy stays as it is;
  // once per page load (a screen reached through the menu keeps the page, and axe with it)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(
            ctx: unknown,
            opts: unknown,
          ): Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run({ exclude: [['.map-canvas']] }, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.length} nodes, first at ${JSON.stringify(v.nodes[0]?.target)}`);
  });
}
