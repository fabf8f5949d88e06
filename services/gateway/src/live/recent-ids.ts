/**
 * The ids of the last `capacity` messages a live feed passed on, to drop a message the bus carries
 * twice. A tracker that sends a fix again because ingest died between publishing and acknowledging
 * it puts the same position (same id) on positions.v1 twice; ClickHouse keeps one, and the socket
 * must not show it twice either. Oldest ids are forgotten first.
 */
export class RecentIds<T extends string | number> {
  private readonly seen = new Set<T>();
  private readonly order: (T | undefined)[];
  private next = 0;

  constructor(private readonly capacity = 65_536) {
    this.order = new Array<T | undefined>(capacity);
  }

  /** True the first time an id is offered (it is then remembered), false while it is remembered. */
  firstTime(id: T): boolean {
    if (this.seen.has(id)) return false;
    const evicted = this.order[this.next];
    if (evicted !== undefined) this.seen.delete(evicted);
    this.order[this.next] = id;
    this.next = (this.next + 1) % this.capacity;
    this.seen.add(id);
    return true;
  }
}
