import { useCallback, useEffect, useRef, useState } from 'react';

/** Replay speeds: how many seconds of the period pass in one second (a day at 1,200× takes 72 s). */
export const SPEEDS = [1, 10, 60, 300, 1200] as const;
export type Speed = (typeof SPEEDS)[number];

export interface ReplayClock {
  /** The cursor's moment, ms. */
  time: number;
  playing: boolean;
  speed: Speed;
  seek(t: number): void;
  play(): void;
  pause(): void;
  setSpeed(s: Speed): void;
}

/**
 * The replay's moment, moved on once per animation frame while playing, by the frame's real
 * duration times the speed; it stops at the end. `schedule` stands in for requestAnimationFrame
 * in tests.
 */
export function useReplayClock(
  start: number,
  end: number,
  schedule: { request: (cb: (now: number) => void) => number; cancel: (id: number) => void } = {
    request: (cb) => requestAnimationFrame(cb),
    cancel: (id) => cancelAnimationFrame(id),
  },
): ReplayClock {
  const [time, setTime] = useState(start);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState<Speed>(60);
  const at = useRef(start);
  const sched = useRef(schedule);
  sched.current = schedule;

  // a new period starts at its beginning
  useEffect(() => {
    at.current = start;
    setTime(start);
    setPlaying(false);
  }, [start, end]);

  useEffect(() => {
    if (!playing) return;
    let last: number | null = null;
    let id = 0;
    const tick = (now: number) => {
      if (last !== null) at.current = Math.min(end, at.current + (now - last) * speed);
      last = now;
      setTime(at.current);
      if (at.current >= end) setPlaying(false);
      else id = sched.current.request(tick);
    };
    id = sched.current.request(tick);
    return () => sched.current.cancel(id);
  }, [playing, speed, end]);

  const seek = useCallback(
    (t: number) => {
      at.current = Math.max(start, Math.min(end, t));
      setTime(at.current);
    },
    [start, end],
  );
  const play = useCallback(() => {
    if (at.current >= end) at.current = start; // played to the end: from the beginning again
    setPlaying(true);
  }, [start, end]);
  const pause = useCallback(() => setPlaying(false), []);
  return { time, playing, speed, seek, play, pause, setSpeed };
}
