const MUTED_KEY = 'corridor.alerts.muted';

/** Whether alerts are silent, as the person last chose (kept in this browser). */
export function soundMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === '1';
  } catch {
    return false;
  }
}

export function setSoundMuted(muted: boolean): void {
  try {
    localStorage.setItem(MUTED_KEY, muted ? '1' : '0');
  } catch {
    /* storage blocked: the choice lasts for this page */
  }
}

let audio: AudioContext | undefined;

/**
 * Two short rising tones, made by the browser (Web Audio; no sound file to load). A page that the
 * person has not touched yet may not play sound (the browser's autoplay rule): then it stays silent
 * and the pop-up still shows.
 */
export function playAlertSound(): void {
  if (soundMuted()) return;
  try {
    audio ??= new AudioContext();
    if (audio.state === 'suspended') void audio.resume().catch(() => undefined);
    const t0 = audio.currentTime;
    for (const [i, freq] of [880, 1175].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = 'sine';
      osc.frequency.value = freq;
      const start = t0 + i * 0.18;
      gain.gain.setValueAtTime(0.0001, start);
      gain.gain.exponentialRampToValueAtTime(0.25, start + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.16);
      osc.connect(gain).connect(audio.destination);
      osc.start(start);
      osc.stop(start + 0.17);
    }
  } catch {
    /* no Web Audio here: the pop-up alone */
  }
}
