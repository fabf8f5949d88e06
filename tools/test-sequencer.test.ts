import { describe, expect, it } from 'vitest';
import { spreadTurnTaking } from './test-sequencer';

const isBrowser = (f: string): boolean => f.startsWith('b');

describe('spreadTurnTaking', () => {
  it('spreads the turn-taking files evenly from 25 % to 80 % of the others, keeping both orders', () => {
    const others = Array.from({ length: 100 }, (_, i) => `p${i}`);
    const browser = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5'];
    const out = spreadTurnTaking([...browser, ...others], isBrowser);
    expect(out).toHaveLength(106);
    expect(out.filter(isBrowser)).toEqual(browser);
    expect(out.filter((f) => !isBrowser(f))).toEqual(others);
    // each browser file comes right before the other file at its place: 25, 36, 47, 58, 69, 80
    const before = browser.map((b) => out[out.indexOf(b) + 1]);
    expect(before).toEqual(['p25', 'p36', 'p47', 'p58', 'p69', 'p80']);
  });

  it('never puts two turn-taking files next to each other while there are others to put between them', () => {
    const others = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const browser = Array.from({ length: 12 }, (_, i) => `b${i}`);
    const out = spreadTurnTaking([...others, ...browser], isBrowser);
    for (let i = 1; i < out.length; i++) expect(isBrowser(out[i]!) && isBrowser(out[i - 1]!), `${out[i - 1]}, ${out[i]}`).toBe(false);
  });

  it('leaves a list with only one kind as it is', () => {
    expect(spreadTurnTaking(['p1', 'p0'], isBrowser)).toEqual(['p1', 'p0']);
    expect(spreadTurnTaking(['b1', 'b0'], isBrowser)).toEqual(['b1', 'b0']);
    expect(spreadTurnTaking(['b0', 'p0'], isBrowser)).toEqual(['b0', 'p0']);
  });
});
