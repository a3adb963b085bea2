/**
 * The thumbnail's shape, in one place: the metadata job writes thumbnails this size, and
 * `computePhash` reads any image at this size so that its hash agrees with the job's.
 */
export const DEFAULT_THUMBNAIL_LONG_SIDE = 512;
export const THUMBNAIL_JPEG_QUALITY = 80;
