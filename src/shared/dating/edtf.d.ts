// Minimal typings for the untyped `edtf` package (edtf.js 4.x): only what the
// dating code uses. See node_modules/edtf/README.md.
declare module 'edtf' {
  interface ExtendedDate {
    /** Normalised EDTF string. */
    readonly edtf: string;
    readonly type: string;
    /** Start of the covered span, ms since epoch (UTC); -Infinity when open. */
    readonly min: number;
    /** Last millisecond of the covered span (UTC); Infinity when open. */
    readonly max: number;
  }
  /** Parses an EDTF string; throws on invalid input. */
  export default function edtf(input: string, constraints?: Record<string, unknown>): ExtendedDate;
}
