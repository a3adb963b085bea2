import { describe, expect, it } from 'vitest';
import { detectScanner } from './scanner';

type Row = [make: string | null, model: string | null, software: string | null, isScan: boolean, reason?: RegExp];

describe('detectScanner', () => {
  it.each<Row>([
    // Flatbed and film scanners (EXIF Make / Model)
    ['EPSON', 'Perfection V600', null, true, /Make\/Model "EPSON Perfection V600" is an Epson scanner/],
    ['SEIKO EPSON CORP.', 'Expression 12000XL', null, true, /Epson scanner/],
    ['Epson', 'FastFoto FF-680W', null, true, /Epson scanner/],
    ['Canon', 'CanoScan 9000F Mark II', null, true, /CanoScan/],
    ['Hewlett-Packard', 'HP Scanjet G4050', null, true, /Scanjet/],
    ['HP', 'ScanJet Pro 2500 f1', null, true, /Scanjet/],
    ['Plustek', 'OpticFilm 8200i', null, true, /Plustek/],
    [null, 'OpticFilm 135i', null, true, /^Model "OpticFilm 135i" is a Plustek scanner$/],
    ['Nikon', 'LS-5000 (Super Coolscan 5000 ED)', null, true, /Coolscan/],
    ['NIKON', 'Nikon SUPER COOLSCAN 9000 ED', null, true, /Coolscan/],
    ['FUJITSU', 'ScanSnap iX1600', null, true, /Fujitsu/],
    ['Fujitsu', 'fi-7160', null, true, /Fujitsu/],
    ['Hasselblad', 'Flextight X5', null, true, /Flextight/],
    ['reflecta', 'ProScan 10T', null, true, /film scanner/],
    ['Microtek', 'ArtixScan F2', null, true, /Microtek/],
    ['Generic', 'USB Flatbed', null, true, /flatbed/],
    ['KODAK', 'KODAK i2600 Scanner', null, true, /scanner/],
    // Scanning software
    ['Canon', 'Canon EOS 5D', 'VueScan 9.7.50', true, /^Software "VueScan 9.7.50" is VueScan scanning software$/],
    [null, null, 'SilverFast 8.8.0r19 (Jul 23 2019)', true, /SilverFast/],
    [null, null, 'Nikon Scan 4.0.3 W', true, /Nikon Scan/],
    [null, null, 'EPSON Scan', true, /Epson Scan/],
    [null, null, 'ScanGear CS 11.3', true, /ScanGear/],
    [null, null, 'ScanSnap Manager #S1500', true, /ScanSnap/],
    [null, null, 'Hamrick Software VueScan', true, /VueScan/],
    [null, null, 'Some Scanning Utility 2.1', true, /scanning software/],
    // Cameras and editors: not scans
    ['Canon', 'Canon EOS 40D', 'GIMP 2.4.5', false],
    ['NIKON', 'COOLPIX P6000', 'Nikon Transfer 1.1 W', false],
    ['SEIKO EPSON CORP.', 'R-D1', 'Epson R-D1 Ver.1.0', false],
    ['EASTMAN KODAK COMPANY', 'KODAK CX7530 ZOOM DIGITAL CAMERA', null, false],
    ['FUJIFILM', 'FinePix E500', null, false],
    [null, null, 'Adobe Photoshop CS2 Macintosh', false],
    [null, null, null, false],
    ['', '  ', '', false],
  ])('%s / %s / %s → %s', (make, model, software, isScan, reason) => {
    const verdict = detectScanner(make, model, software);
    expect(verdict.isScan).toBe(isScan);
    if (isScan) expect(verdict.reason).toMatch(reason!);
    else expect(verdict.reason).toBeNull();
  });

  it('collapses whitespace in what it quotes', () => {
    expect(detectScanner('  EPSON ', 'Perfection\u0020\u0020V850 ', null).reason).toBe(
      'Make/Model "EPSON Perfection V850" is an Epson scanner',
    );
  });
});
