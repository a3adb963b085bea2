/**
 * Was this file made by a scanner? For an archive of scans the EXIF "camera" is usually the
 * scanner or the scanning software, and its dates are the *scan* date: an upper bound on when the
 * photograph was made, never the date it was taken. The reason says which field decided it.
 */

export interface ScannerVerdict {
  isScan: boolean;
  reason: string | null;
}

interface Rule {
  field: 'make' | 'model' | 'software' | 'make+model';
  pattern: RegExp;
  what: string;
}

/**
 * Ordered: the first rule that matches decides. Make+model rules look at "make model" joined,
 * for manufacturers whose scanner model names alone are generic ("Perfection V600").
 */
const RULES: readonly Rule[] = [
  // Scanning software
  { field: 'software', pattern: /\bvue\s*scan\b/i, what: 'VueScan scanning software' },
  { field: 'software', pattern: /\bsilver\s*fast\b/i, what: 'SilverFast scanning software' },
  { field: 'software', pattern: /\bnikon\s*scan\b/i, what: 'Nikon Scan software' },
  { field: 'software', pattern: /\bepson\s*scan\b/i, what: 'Epson Scan software' },
  { field: 'software', pattern: /\bscan\s*gear\b/i, what: 'Canon ScanGear software' },
  { field: 'software', pattern: /\bscansnap\b/i, what: 'Fujitsu ScanSnap software' },
  { field: 'software', pattern: /\bfast\s*foto\b/i, what: 'Epson FastFoto software' },
  { field: 'software', pattern: /\btwain\b/i, what: 'TWAIN scanner driver' },
  { field: 'software', pattern: /\bwia\b|windows image acquisition/i, what: 'Windows scanner driver (WIA)' },
  { field: 'software', pattern: /\bflextight\b|\bflexcolor\b/i, what: 'Hasselblad/Imacon film scanner software' },
  { field: 'software', pattern: /scan/i, what: 'scanning software' },
  // Scanner makes and models
  { field: 'make+model', pattern: /\bepson\b.*\b(perfection|expression|fastfoto|ds-\d|gt-\d)/i, what: 'an Epson scanner' },
  { field: 'make+model', pattern: /\bplustek\b|\bopticfilm\b|\bopticbook\b|\bopticpro\b/i, what: 'a Plustek scanner' },
  { field: 'make+model', pattern: /\bcoolscan\b|\bsuper\s*coolscan\b/i, what: 'a Nikon Coolscan film scanner' },
  { field: 'make+model', pattern: /\bcanoscan\b/i, what: 'a Canon CanoScan scanner' },
  { field: 'make+model', pattern: /\bscan\s*jet\b/i, what: 'an HP Scanjet scanner' },
  { field: 'make+model', pattern: /\bscansnap\b|\bfujitsu\b.*\bfi-\d/i, what: 'a Fujitsu scanner' },
  {
    field: 'make+model',
    pattern: /\b(hasselblad|imacon)\b.*\bflextight\b|\bflextight\b/i,
    what: 'a Hasselblad/Imacon Flextight scanner',
  },
  { field: 'make+model', pattern: /\breflecta\b|\bpacific image\b|\bprimefilm\b|\bpowerslide\b/i, what: 'a film scanner' },
  { field: 'make+model', pattern: /\bmicrotek\b|\bscanmaker\b|\bartixscan\b/i, what: 'a Microtek scanner' },
  { field: 'make+model', pattern: /\bumax\b|\bpowerlook\b/i, what: 'a UMAX scanner' },
  { field: 'make+model', pattern: /\bavision\b|\bmustek\b|\bvisioneer\b|\bdocumate\b/i, what: 'a document scanner' },
  { field: 'make+model', pattern: /\bdimage\s*scan\b|\bsprintscan\b/i, what: 'a film scanner' },
  { field: 'make+model', pattern: /\bflat\s*bed\b/i, what: 'a flatbed scanner' },
  { field: 'make+model', pattern: /scan/i, what: 'a scanner' },
];

function clean(value: string | null | undefined): string {
  return (value ?? '').replace(/\s+/g, ' ').trim();
}

export function detectScanner(
  make: string | null | undefined,
  model: string | null | undefined,
  software: string | null | undefined,
): ScannerVerdict {
  const fields = {
    make: clean(make),
    model: clean(model),
    software: clean(software),
  };
  const makeModel = [fields.make, fields.model].filter(Boolean).join(' ');
  for (const rule of RULES) {
    if (rule.field === 'make+model') {
      if (makeModel && rule.pattern.test(makeModel)) {
        const label = fields.make && fields.model ? 'Make/Model' : fields.make ? 'Make' : 'Model';
        return { isScan: true, reason: `${label} "${makeModel}" is ${rule.what}` };
      }
    } else {
      const value = fields[rule.field];
      if (value && rule.pattern.test(value)) {
        return { isScan: true, reason: `Software "${value}" is ${rule.what}` };
      }
    }
  }
  return { isScan: false, reason: null };
}
