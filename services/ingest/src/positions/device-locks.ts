/**
 * In-process exclusive sections per device: a call waits for earlier calls on any of its devices
 * (acquired in id order, so two calls never wait on each other). Keeps one device's track state
 * read-advance-save from interleaving when its positions arrive on two requests at once.
 */
export class DeviceLocks {
  private readonly tails = new Map<number, Promise<void>>();

  async with<T>(deviceIds: number[], fn: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    for (const id of [...new Set(deviceIds)].sort((a, b) => a - b)) {
      const before = this.tails.get(id) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const tail = before.then(() => mine);
      this.tails.set(id, tail);
      releases.push(() => {
        release();
        if (this.tails.get(id) === tail) this.tails.delete(id);
      });
      await before;
    }
    try {
      return await fn();
    } finally {
      for (const r of releases) r();
    }
  }
}
