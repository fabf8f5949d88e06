/** What a report does with one device's rows: items as rows settle them, the rest at the end. */
export interface DeviceRun<Row, Item> {
  push(row: Row): Item[];
  finish(): Item[];
}

/**
 * Splits a stream ordered by device (read in batches) into per-device runs (`start` is called at
 * each device's first row) and yields their items as they come, a batch per batch read, so a report
 * holds one device's state at a time.
 */
export async function* perDevice<Row extends { deviceId: number }, Item>(
  batches: AsyncIterable<Row[]>,
  start: (deviceId: number) => DeviceRun<Row, Item>,
): AsyncGenerator<Item[]> {
  let deviceId: number | undefined;
  let run: DeviceRun<Row, Item> | undefined;
  for await (const batch of batches) {
    const out: Item[] = [];
    for (const row of batch) {
      if (row.deviceId !== deviceId) {
        if (run) out.push(...run.finish());
        deviceId = row.deviceId;
        run = start(row.deviceId);
      }
      const items = run!.push(row);
      if (items.length) out.push(...items);
    }
    if (out.length) yield out;
  }
  const rest = run?.finish() ?? [];
  if (rest.length) yield rest;
}
