import { describe, expect, it } from 'vitest';
import { allTopics, compactedTopics, topicPlan } from './topics';

describe('topic plan', () => {
  it('lays out every topic once', () => {
    expect(topicPlan.map((t) => t.name).sort()).toEqual([...allTopics].sort());
  });

  it('keeps compacted topics without retention and every other topic with one', () => {
    for (const t of topicPlan) {
      expect(t.compacted, t.name).toBe(compactedTopics.includes(t.name));
      if (t.compacted) expect(t.retentionMs, t.name).toBeNull();
      else expect(t.retentionMs, t.name).toBeGreaterThanOrEqual(86_400_000);
      expect(Number.isInteger(t.partitions) && t.partitions >= 1, t.name).toBe(true);
    }
  });

  it('gives positions.v1 at least 12 partitions (the multi-instance run and the HPAs count on it)', () => {
    expect(topicPlan.find((t) => t.name === 'positions.v1')?.partitions).toBeGreaterThanOrEqual(12);
  });
});
