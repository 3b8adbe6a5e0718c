/** A 16x16 PNG of the MCP logo's "M" (113 bytes), base64: what get-tiny-image and get-annotated-message show. */
export const TINY_PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAOElEQVR42mP4TyJg+P//vyDRgP4asGpGU4CuAU0Pmgh2G+AiaFx8TkI2mCgNJPhhsGkYPEmDJAAANgkXxLV+AzsAAAAASUVORK5CYII=';
