/**
 * Bytes of frames a whole server holds while they wait for the bus. When it is full every
 * connection of the server stops reading (socket.pause()); connections waiting for room register
 * here and are woken as frames drain.
 */
export class InflightBudget {
  private used = 0;
  private readonly waiting = new Set<() => void>();

  constructor(readonly max: number) {}

  get bytes(): number {
    return this.used;
  }

  get full(): boolean {
    return this.used >= this.max;
  }

  take(n: number): void {
    this.used += n;
  }

  release(n: number): void {
    const wasFull = this.full;
    this.used = Math.max(0, this.used - n);
    if (wasFull && !this.full) for (const wake of [...this.waiting]) wake();
  }

  wait(wake: () => void): void {
    this.waiting.add(wake);
  }

  stopWaiting(wake: () => void): void {
    this.waiting.delete(wake);
  }
}
