/** Imaging for the `metadata` job (worker side). See metadata.ts for the contract. */
export { extractPhotoMetadata, photoMetadataSchema, DEFAULT_THUMBNAIL_LONG_SIDE, SHARP_FAIL_ON } from './metadata';
export type { ExtractPhotoMetadataInput, PhotoMetadata, EmbeddedMetadata } from './metadata';
export { sha256File, sha256Buffer, type FileHash } from '../../shared/node/hash';
export { computePhash, hammingDistance, phashFromGreyscale } from './phash';
export { detectScanner, type ScannerVerdict } from './scanner';
export {
  SUPPORTED_EXTENSIONS,
  SUPPORTED_FORMATS,
  KNOWN_FORMATS,
  hasSupportedExtension,
  sniffFormat,
  type ImageFormat,
  type KnownFormat,
} from '../../shared/image-formats';
