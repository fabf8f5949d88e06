import { describe, expect, it } from 'vitest';
import { layOut, spreadTurnTaking, type Placement } from './test-sequencer';

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

  it("spaces them by the others' time, each followed by others in proportion to its own time", () => {
    // 20 long others (10 s each), then 100 short ones (1 s): 300 s; browser files of 60, 30 and 10 s
    const others = [...Array.from({ length: 20 }, (_, i) => `l${i}`), ...Array.from({ length: 100 }, (_, i) => `s${i}`)];
    const browser = ['b60', 'b30', 'b10'];
    const seconds = (f: string): number => (f.startsWith('b') ? Number(f.slice(1)) : f.startsWith('l') ? 10 : 1);
    const out = spreadTurnTaking([...browser, ...others], isBrowser, seconds);
    expect(out.filter(isBrowser)).toEqual(browser);
    expect(out.filter((f) => !isBrowser(f))).toEqual(others);
    // at 75 s (25 %), at 75 + 165 * 60/90 = 185 s, at 240 s (80 %): before the others running then
    const before = browser.map((b) => out[out.indexOf(b) + 1]);
    expect(before).toEqual(['l7', 'l18', 's40']);
  });
});

describe('layOut', () => {
  const placement = (f: string): Placement => (f.startsWith('b') ? 'turn' : f.startsWith('o') ? 'own-process' : 'shared');
  const group = (f: string): string => f.split('-')[0]!;

  it("puts the own-process files first, then each project's shared files together, with the turn-taking ones spread by time", () => {
    const sorted = ['c-1', 'b1', 'p-1', 'o1', 'c-2', 'p-2', 'b2', 'o2', 'p-3'];
    const out = layOut(sorted, { placement, group, seconds: (f) => (f.startsWith('o') ? 10 : f.startsWith('b') ? 5 : 1) });
    expect(out.filter((f) => placement(f) !== 'turn')).toEqual(['o1', 'o2', 'c-1', 'c-2', 'p-1', 'p-2', 'p-3']);
    expect(out.filter((f) => placement(f) === 'turn')).toEqual(['b1', 'b2']);
    // others' time 25 s: b1 at 6.25 s (o1 runs from 0 to 10 s), b2 at 20 s (c-1 runs from 20 to 21 s)
    expect(out).toEqual(['b1', 'o1', 'o2', 'b2', 'c-1', 'c-2', 'p-1', 'p-2', 'p-3']);
  });
});
