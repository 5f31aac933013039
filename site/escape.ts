// Escaping for text from contracts placed in HTML: every contract string is untrusted.
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text content and attribute values. */
export const esc = (value: unknown): string => String(value ?? '').replace(/[&<>"']/g, (ch) => HTML[ch] as string);

/** JSON inside a <script> data block: `</script>`, `<!--` and line separators must not survive. */
export const jsonForHtml = (value: unknown): string =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
