/** Words for what an import or the archivist says about whether files are scans (see exif-evidence.ts in main). */
import type { ScanPolicy } from '../../../shared/contract';

export const SCAN_POLICY_LABEL: Record<ScanPolicy, string> = {
  detect: 'Scans, unless the EXIF names a camera',
  all_scans: 'All scans, even those made with a camera (copy stand)',
  originals: 'Camera originals, unless the EXIF names a scanner',
};

export const SCAN_POLICY_HINT: Record<ScanPolicy, string> = {
  detect: 'A scan’s EXIF date only says the photo is not later than the scan; a camera’s is when it was taken.',
  all_scans: 'Every EXIF date only says the photo is not later than when the file was made.',
  originals: 'An EXIF date is when the photo was taken, unless a scanner made the file.',
};

export const SCAN_POLICIES = Object.keys(SCAN_POLICY_LABEL) as ScanPolicy[];
