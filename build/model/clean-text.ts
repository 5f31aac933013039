// Text from outside (requests, registries) cleaned to one line before it is stored or quoted.

/** Control and format characters (incl. bidi overrides) are removed, whitespace runs become one space. */
export function cleanText(s: string): string {
  return s
    .replace(/[\p{Cc}\p{Cf}]+/gu, (m) => (/[\t\n\r\v\f]/.test(m) ? ' ' : ''))
    .replace(/\s+/g, ' ')
    .trim();
}
