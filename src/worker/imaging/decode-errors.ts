/**
 * What a decoder's failure means for the job, in plain words: the decoder's own text (libvips,
 * libjpeg…) goes with the error's cause, which ends up in the job's technical details, never in
 * the message the archivist reads. Shared by the metadata and zoom-view jobs.
 */
import { PermanentJobError } from '../../shared/jobs/errors';
import { FORMAT_LABELS, type ImageFormat } from '../../shared/image-formats';
import { isAbortError } from '../../shared/node/io-errors';

/** "400 MP", or "5,000 px" for small limits. */
export function formatPixelLimit(n: number): string {
  if (n >= 100_000) return `${Number((n / 1_000_000).toFixed(1))} MP`;
  return `${n.toLocaleString('en-US')} px`;
}

export function decoderError(err: unknown, format: ImageFormat, width?: number, height?: number, limit?: number): unknown {
  if (isAbortError(err) || err instanceof PermanentJobError) return err;
  const reason = err instanceof Error ? err.message : String(err);
  if (/pixel limit/i.test(reason) && width && height && limit) {
    return new PermanentJobError(`Image too large: ${width}×${height} px exceeds the ${formatPixelLimit(limit)} limit`, {
      cause: err,
    });
  }
  // Running out of memory is the machine's state, not the file's: let the runtime retry.
  if (/out of memory|memory allocation|cannot allocate|ENOMEM/i.test(reason)) {
    return new Error('Not enough memory to decode the image; it will be tried again', { cause: err });
  }
  const label = FORMAT_LABELS[format];
  // A valid file in a variant the decoder lacks (e.g. lossless or arithmetic-coded JPEG). Not
  // sharp's "unsupported image format": the bytes were sniffed as this format, so that means the
  // decoder could not make sense of them.
  if (/unsupported|not supported/i.test(reason) && !/unsupported image format/i.test(reason)) {
    return new PermanentJobError(`Unsupported ${label} variant: this kind of ${label} cannot be decoded`, { cause: err });
  }
  const truncated = /premature end|truncated|unexpected end|end of file|short read|not enough data/i.test(reason);
  return new PermanentJobError(
    `Truncated or corrupt ${label}: ${truncated ? 'the file ends before its image data does' : 'its image data cannot be decoded'}`,
    { cause: err },
  );
}
