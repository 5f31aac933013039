// The HTML shell every generated page shares: plain, no styles and no scripts unless a page brings them.
import { esc } from './escape.ts';

export interface PageShell {
  title: string;
  description: string;
  canonical: string;
  body: string;
  /** Extra trusted markup for <head> (already escaped by the caller). */
  head?: string;
}

export function layout({ title, description, canonical, body, head = '' }: PageShell): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${esc(title)}</title>
<meta name="description" content="${esc(description)}">
<link rel="canonical" href="${esc(canonical)}">
${head}</head>
<body>
${body}
</body>
</html>
`;
}
