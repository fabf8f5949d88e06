import type { MotionFix } from './fixes';

/** deviceMoving / deviceStopped as a detector finds them, at the fix the event is dated to. */
export interface MotionEvent<F extends MotionFix = MotionFix> {
  type: 'moving' | 'stopped';
  fix: F;
  /** For 'moving': the highest speed from the event fix through the fix being processed, knots. */
  maxSpeed: number;
}

/** One device's motion state machine, fed its fixes oldest first. */
export interface MotionDetector<F extends MotionFix = MotionFix> {
  /** Events this fix settles, in order (possibly dated to earlier fixes). */
  update(fix: F): MotionEvent<F>[];
  /** The newer model: whether it is moving (a moving stretch then settles nothing: moving-stretch.ts). */
  moving?(): boolean;
  /** The newer model: takes a fix of a moving stretch into its window, as `update` would, without looking. */
  pass?(fix: F): void;
}
