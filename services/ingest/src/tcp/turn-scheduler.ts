/** What the scheduler runs: a connection's next batch. */
export interface TurnWork {
  /** Starts the next batch, if any; returns the frames it handed over (0 when there was nothing to do). */
  runTurn(): number;
}

/**
 * Frames whose batches one slice starts: at the stack's few tens of µs of a posted batch's frame,
 * a few ms of work on a quiet core between two reads of the device sockets.
 */
const SLICE_FRAMES = 64;

/**
 * The connections' batches of one ingest instance (every device port of one thread), run in
 * slices: one slice per turn of the event loop (setImmediate, after the poll phase that read the
 * sockets), each starting batches until `sliceFrames` frames were handed over, then yielding to
 * the next turn's poll phase, where new connections are accepted and their frames read.
 * Work whose next frame carries no fix (a login, a heartbeat, a status: `urgent`) runs first in
 * every slice, so a tracker's identity never waits behind the positions of others; positions get
 * the rest of the slice, and at least one batch per slice, so they are never starved either.
 *
 * Why: when a batch's durable path completes without waiting for another thread (the embedded
 * stack's posted publishes) every connection's whole queue used to be worked through in one turn
 * (setImmediate per connection, each drain looping through its queue in microtasks), and on a
 * starved machine such a turn took 1-3 s, during which a new tracker was neither accepted nor read.
 */
export class TurnScheduler {
  private readonly urgent: TurnWork[] = [];
  private readonly normal: TurnWork[] = [];
  private sliceScheduled = false;
  /** Slices run so far (tests read it). */
  slices = 0;

  constructor(private readonly sliceFrames = SLICE_FRAMES) {}

  /** Queues `work` for a slice: first among the urgent ones, or after the positions queued before. */
  schedule(work: TurnWork, urgent: boolean): void {
    (urgent ? this.urgent : this.normal).push(work);
    if (this.sliceScheduled) return;
    this.sliceScheduled = true;
    setImmediate(this.slice);
  }

  /** Work queued and not yet started. */
  get waiting(): number {
    return this.urgent.length + this.normal.length;
  }

  private readonly slice = (): void => {
    this.sliceScheduled = false;
    this.slices++;
    let budget = this.sliceFrames;
    // the urgent work queued before this slice; more queued meanwhile waits for the next one
    for (let n = this.urgent.length; n > 0 && budget > 0; n--) budget -= this.urgent.shift()!.runTurn();
    let started = false;
    while (this.normal.length && (budget > 0 || !started)) {
      const frames = this.normal.shift()!.runTurn();
      budget -= frames;
      started ||= frames > 0;
    }
    if (this.waiting && !this.sliceScheduled) {
      // a setImmediate queued while the check phase runs waits for the next turn: the poll phase comes first
      this.sliceScheduled = true;
      setImmediate(this.slice);
    }
  };
}
