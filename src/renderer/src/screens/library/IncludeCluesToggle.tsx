/**
 * The library toolbar's "with clues" switch. A clue is not a date (src/shared/dating/clue-rule.ts):
 * by default a photo with only clues sorts with the undated and no year range holds it. Switched
 * on, such a photo is sorted and filtered by what its clues alone would say; its tile still says
 * it is undated, and an export of the photos shown uses the same year range.
 */
export const INCLUDE_CLUES_HINT =
  'Count clues in the date order and the year filter: a photo with only clues (unaccepted visual analysis, weak findings) is placed by what its clues would say. It stays undated.';

export function IncludeCluesToggle({ checked, onChange }: { checked: boolean; onChange: (value: boolean) => void }) {
  return (
    <label className="include-clues" title={INCLUDE_CLUES_HINT}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      with clues
    </label>
  );
}
