import { cpus, freemem, loadavg, platform, release, totalmem } from 'node:os';

/** The machine a benchmark ran on, recorded beside its figures (compare ratios within one run). */
export function describeMachine() {
  const c = cpus();
  return {
    platform: `${platform()} ${release()}`,
    cpuModel: c[0]?.model ?? 'unknown',
    cores: c.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    freeMemoryGiB: Math.round((freemem() / 2 ** 30) * 10) / 10,
    loadAverage1m: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    node: process.version,
  };
}
