import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeMachine } from './machine';

/**
 * `pnpm bench [suite ...]`: runs the suites in tools/bench/suites (all by default), one after the
 * other in this process, and records each result with the machine's description in
 * bench/results/<suite>.json (the latest run) and bench/results/history.jsonl (every run).
 * BENCH_RESULT_NAME=<name> (one suite) records the run as bench/results/<name>.json instead, so a
 * partial rerun (some systems, a profile) keeps the suite's full run in place.
 */
type Suite = () => Promise<Record<string, number | string>>;

const here = fileURLToPath(new URL('.', import.meta.url));
const resultsDir = join(here, '..', '..', 'bench', 'results');
const available = readdirSync(join(here, 'suites'))
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => basename(f, '.ts'))
  .sort();
const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const unknown = wanted.filter((w) => !available.includes(w));
if (unknown.length) {
  process.stderr.write(`unknown suite(s): ${unknown.join(', ')}\navailable: ${available.join(', ')}\n`);
  process.exit(2);
}
const suites = wanted.length ? wanted : available;
mkdirSync(resultsDir, { recursive: true });

let failed = 0;
for (const name of suites) {
  process.stdout.write(`\n== ${name}\n`);
  const machine = describeMachine();
  const started = new Date();
  try {
    const mod = (await import(join(here, 'suites', `${name}.ts`))) as { default: Suite };
    const figures = await mod.default();
    const record = { suite: name, startedAt: started.toISOString(), seconds: (Date.now() - started.getTime()) / 1000, machine, figures };
    const file = suites.length === 1 && process.env.BENCH_RESULT_NAME ? process.env.BENCH_RESULT_NAME : name;
    writeFileSync(join(resultsDir, `${file}.json`), JSON.stringify(record, null, 2) + '\n');
    writeFileSync(join(resultsDir, 'history.jsonl'), JSON.stringify(record) + '\n', { flag: 'a' });
    for (const [k, v] of Object.entries(figures))
      process.stdout.write(`  ${k.padEnd(48)} ${typeof v === 'number' ? v.toLocaleString('en-US', { maximumFractionDigits: 2 }) : v}\n`);
  } catch (err) {
    failed++;
    process.stderr.write(`  FAILED: ${err instanceof Error ? err.stack : String(err)}\n`);
  }
}
process.stdout.write(`\n${suites.length - failed} suite(s) recorded in bench/results/${failed ? `, ${failed} failed` : ''}\n`);
process.exit(failed ? 1 : 0);
