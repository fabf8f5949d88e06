import type { FenceShape } from './fence';

export type AreaErrorCode =
  | 'syntax'
  | 'unknown_shape'
  | 'unsupported_geometry'
  | 'invalid_number'
  | 'coordinate_out_of_range'
  | 'too_few_points'
  | 'degenerate_ring'
  | 'self_intersection'
  | 'rings_intersect'
  | 'hole_outside_outer'
  | 'radius_out_of_range'
  | 'polyline_distance_out_of_range'
  | 'crosses_antimeridian'
  | 'reaches_pole';

/** Not errors: the input was accepted after a normalisation the caller may want to show. */
export type AreaNoticeCode = 'ring_closed' | 'duplicate_point_removed';

export type IssuePath = (string | number)[];

export interface AreaIssue<C extends string = AreaErrorCode | AreaNoticeCode> {
  /** where in the input, e.g. ['area', 0, 3] = ring 0, point 3 of a WKT polygon */
  path: IssuePath;
  code: C;
  message: string;
}

export type AreaResult =
  | { ok: true; shape: FenceShape; notices: AreaIssue<AreaNoticeCode>[] }
  | { ok: false; errors: AreaIssue<AreaErrorCode>[]; notices: AreaIssue<AreaNoticeCode>[] };
