/**
 * Collects items and hands them over once per animation frame, keyed so that only the newest
 * item per key survives (2,000 trucks reporting in one frame become one cache update).
 */
export class FrameBatcher<T> {
  private pending = new Map<string | number, T>();
  private scheduled = false;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly schedule: (cb: () => void) => unknown = (cb) => requestAnimationFrame(cb),
  ) {}

  add(key: string | number, item: T): void {
    this.pending.set(key, item);
    if (this.scheduled) return;
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      const items = [...this.pending.values()];
      this.pending = new Map();
      if (items.length) this.flush(items);
    });
  }
}
