import { describe, expect, it } from 'vitest';
import { plainExportError } from './exportWords';

describe('plainExportError', () => {
  it("names the dialog's field and says what to do, never the payload's key", () => {
    expect(plainExportError('Invalid payload for export: destination: must be an absolute folder path')).toBe(
      'Export folder: give the full path of the folder (starting with / or a drive letter)',
    );
    expect(plainExportError('Invalid payload for export: formats: each format once')).toBe('Formats: each format once');
  });
  it('leaves any other message alone', () => {
    expect(plainExportError('The disk is full')).toBe('The disk is full');
  });
});
