/**
 * Runs one benchmark suite in this process and prints its figures as one `SUITE_FIGURES <json>`
 * line: for suites that compare variants needing a process each (kafka-clients.ts runs
 * ingest-overload.ts once per Kafka client). `node --import tsx tools/bench/suite-child.ts <suite>`.
 */
const name = process.argv[2];
if (!name) throw new Error('usage: suite-child.ts <suite>');
const mod = (await import(new URL(`./suites/${name}.ts`, import.meta.url).href)) as {
  default: () => Promise<Record<string, number | string>>;
};
const figures = await mod.default();
process.stdout.write(`SUITE_FIGURES ${JSON.stringify(figures)}\n`);
process.exit(0);
