/** Metres per pixel at zoom 0 on the equator (Web Mercator, 512 px tiles as MapLibre draws them). */
const MPP_Z0 = 78271.517;

/**
 * Line width properties that draw a band `halfWidthM` either side of a line to scale: the pixel
 * width at zoom 0 (w0) and at zoom 22 (w22), for an exponential zoom interpolation in the layer.
 */
export function bandWidth(halfWidthM: number, latitude: number): { w0: number; w22: number } {
  const w0 = (2 * halfWidthM) / (MPP_Z0 * Math.cos((latitude * Math.PI) / 180));
  return { w0, w22: w0 * 2 ** 22 };
}
