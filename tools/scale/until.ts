/** The ceiling of `until` passed: the condition never held (anything else its condition threw is not this). */
export class CeilingPassed extends Error {
  override readonly name = 'CeilingPassed';
}

/**
 * Waits for a condition, polling; the ceiling only turns a broken run into a failure with a reason
 * (a slow machine waits longer, it does not fail). No timing is ever asserted.
 */
export async function until(what: string, cond: () => boolean | Promise<boolean>, ceilingMs = 180_000, everyMs = 100): Promise<void> {
  const deadline = Date.now() + ceilingMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new CeilingPassed(`timed out after ${ceilingMs / 1000} s waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
