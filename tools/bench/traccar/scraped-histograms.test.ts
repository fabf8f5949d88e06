import { describe, expect, it } from 'vitest';
import { parseHistograms, phaseFigures } from './scraped-histograms';

const exposition = (fast: number, slow: number, sends: number): string =>
  [
    '# HELP bus_send_seconds x',
    '# TYPE bus_send_seconds histogram',
    `bus_send_seconds_bucket{le="0.001"} ${fast}`,
    `bus_send_seconds_bucket{le="0.1"} ${fast + slow}`,
    `bus_send_seconds_bucket{le="+Inf"} ${fast + slow}`,
    `bus_send_seconds_sum 1`,
    `bus_send_seconds_count ${fast + slow}`,
    // two label sets of one histogram add up
    `ingest_ack_latency_seconds_bucket{le="0.01",protocol="gt06"} ${sends}`,
    `ingest_ack_latency_seconds_bucket{le="+Inf",protocol="gt06"} ${sends}`,
    `ingest_ack_latency_seconds_bucket{protocol="h02",le="0.01"} ${sends}`,
    `ingest_ack_latency_seconds_bucket{protocol="h02",le="+Inf"} ${sends}`,
    `bus_send_messages_bucket{le="1"} ${sends}`,
    `bus_send_messages_bucket{le="10"} ${sends * 2}`,
    `bus_send_messages_bucket{le="+Inf"} ${sends * 2}`,
    `other_bucket{le="1"} 5`,
  ].join('\n');

describe('histograms read from /metrics', () => {
  const names = ['bus_send_seconds', 'ingest_ack_latency_seconds', 'bus_send_messages', 'bus_publish_wait_seconds'];

  it('sums the buckets of each named histogram over its label sets and leaves the others out', () => {
    const h = parseHistograms(exposition(10, 0, 3), names);
    expect(h.get('bus_send_seconds')).toEqual(
      new Map([
        [0.001, 10],
        [0.1, 10],
        [Infinity, 10],
      ]),
    );
    expect(h.get('ingest_ack_latency_seconds')).toEqual(
      new Map([
        [0.01, 6],
        [Infinity, 6],
      ]),
    );
    expect(h.has('other')).toBe(false);
  });

  it("gives each histogram's p50/p99 over the observations between two readings, ms for seconds", () => {
    // between the readings: 90 sends under 1 ms, 10 between 1 and 100 ms
    const figures = phaseFigures(parseHistograms(exposition(10, 0, 3), names), parseHistograms(exposition(100, 10, 3), names));
    expect(figures['bus_send_seconds.count']).toBe(100);
    expect(figures['bus_send_seconds.p50_ms']).toBeCloseTo(0.56, 2);
    expect(figures['bus_send_seconds.p99_ms']).toBeCloseTo(90.1, 1);
    // nothing observed between the readings: no figures
    expect(figures['ingest_ack_latency_seconds.count']).toBeUndefined();
    expect(figures['bus_publish_wait_seconds.count']).toBeUndefined();
  });

  it('keeps a histogram of counts in its own unit', () => {
    const figures = phaseFigures(parseHistograms(exposition(0, 0, 0), names), parseHistograms(exposition(0, 0, 10), names));
    expect(figures['bus_send_messages.count']).toBe(20);
    expect(figures['bus_send_messages.p50']).toBe(1);
    expect(figures['bus_send_messages.p99']).toBeCloseTo(9.82, 2);
  });
});
