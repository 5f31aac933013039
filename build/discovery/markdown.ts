// Markdown escaping for text that comes from contracts (llms.txt, instructions): a task may contain
// brackets, backticks, HTML or newlines, and must read as plain text, never as markup or a link.
// Text is never at the start of a line here, so block markers (#, -, +) need no escape; with [ and ]
// escaped no link can form, so parentheses stay readable.
export function escapeMarkdown(text: string): string {
  return text
    .replace(/[\r\n\t]+/g, ' ')
    .replace(/[\\`*[\]<>&]/g, (ch) => (ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : ch === '&' ? '&amp;' : `\\${ch}`))
    .trim();
}

/** A URL inside `(...)`: percent-encode what would end or break the link target. */
export function escapeMarkdownUrl(url: string): string {
  return url.replace(/[()\s<>]/g, (ch) => encodeURIComponent(ch));
}
