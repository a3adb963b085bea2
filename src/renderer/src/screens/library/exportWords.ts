/** Export's refusals from main, said in the Export dialog's own words (issue 32: "error texts read like code"). */
/** The form's fields, as the dialog names them. */
const EXPORT_FIELDS: Record<string, string> = {
  destination: 'Export folder',
  formats: 'Formats',
  scope: 'Which photos',
};

/**
 * An export refused by main, in the dialog's words: "Invalid payload for export: destination:
 * must be an absolute folder path" reads as "Export folder: give the folder's full path…".
 */
export function plainExportError(message: string): string {
  const body = message.replace(/^Invalid payload for export:\s*/, '');
  if (body === message) return message;
  return body
    .split('; ')
    .map((part) => {
      const [field, ...rest] = part.split(': ');
      const text = rest.join(': ');
      const name = EXPORT_FIELDS[field.split('.')[0]];
      if (!name || !text) return part;
      const said = /absolute folder path/.test(text)
        ? 'give the full path of the folder (starting with / or a drive letter)'
        : text;
      return `${name}: ${said}`;
    })
    .join('; ');
}
