/** Every item of a stream of batches (a report's, a reader's), in order, as one array. */
export async function allItems<T>(batches: AsyncIterable<T[]>): Promise<T[]> {
  const out: T[] = [];
  for await (const b of batches) out.push(...b);
  return out;
}
