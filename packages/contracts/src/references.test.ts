import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { allEndpoints } from './registry';
import { endpointReferences, idParam, notRef, ref, scanReferences, valuesAt } from './references';

describe('id references in the contract', () => {
  it('annotates every id-like field of every request (path parameters, names ending in Id/Ids) with ref() or notRef()', () => {
    const missing = allEndpoints.flatMap((e) => endpointReferences(e).unannotated.map((f) => `${e.id}: ${f}`));
    expect(missing).toEqual([]);
  });

  it('finds references nested in objects, arrays, unions and pipes, and flags unannotated ids', () => {
    const schema = z.object({
      deviceId: ref('device', z.number()),
      items: z.array(z.object({ groupId: ref('group', z.number()).nullable(), note: z.string() })).default([]),
      ids: z.preprocess((v) => v, z.array(ref('calendar', z.number()))).optional(),
      uniqueId: notRef(z.string(), 'its own'),
      orphanId: z.number(),
    });
    const scan = scanReferences(schema);
    expect(scan.references.map((r) => `${r.path.join('.')}=${r.references}`)).toEqual([
      'deviceId=device',
      'items.[].groupId=group',
      'ids.[]=calendar',
    ]);
    expect(scan.unannotated).toEqual([['orphanId']]);
    expect(endpointReferences({ request: { params: z.object({ code: z.string() }) } }).unannotated).toEqual(['params.code']);
    expect(endpointReferences({ request: { params: idParam('route') } }).params[0]).toMatchObject({ references: 'route', path: ['id'] });
  });

  it('reads the values at a path, through arrays', () => {
    expect(valuesAt({ items: [{ groupId: 3 }, { groupId: null }, {}] }, ['items', '[]', 'groupId'])).toEqual([3]);
    expect(valuesAt({ ids: [1, 2] }, ['ids', '[]'])).toEqual([1, 2]);
    expect(valuesAt(undefined, ['x'])).toEqual([]);
  });
});
