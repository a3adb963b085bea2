/** An ExifTool for tests that read sidecars back, knowing Circa's namespace. */
import fs from 'node:fs';
import path from 'node:path';
import { ExifTool } from 'exiftool-vendored';
import { CIRCA_EXIFTOOL_CONFIG } from '../../src/shared/export/xmp-tags';
import { tempDir } from './core';

export function circaExifTool(): ExifTool {
  const config = path.join(tempDir(), 'circa.config');
  fs.writeFileSync(config, CIRCA_EXIFTOOL_CONFIG);
  return new ExifTool({ maxProcs: 1, exiftoolArgs: ['-config', config, '-stay_open', 'True', '-@', '-'] });
}
