// The category a contract is listed under in the index, llms.txt and their sections: derived from its tags and
// task by one small rule, so a new contract needs no extra field and the rule can be read in one screen.
// Each category has words; a contract scores 2 per tag word and 1 per task word that is one of them (plural
// `s` dropped), the highest score wins, ties go to the earlier category, no match is `other`.
import type { ToolContract } from './contract.ts';

export interface Category {
  id: string;
  label: string;
  words: readonly string[];
}

const words = (list: string) => list.split(' ');

/** In the order ties are broken and sections are shown: the more specific needs before the broad ones. */
export const CATEGORIES: readonly Category[] = [
  {
    id: 'documents',
    label: 'Documents',
    words: words('pdf docx word xlsx excel spreadsheet powerpoint pptx document ocr epub'),
  },
  {
    id: 'media',
    label: 'Images, audio and video',
    words: words('image photo video audio ffmpeg svg png jpeg gif qr chart plot'),
  },
  {
    id: 'messaging',
    label: 'Email and messaging',
    words: words('email mail smtp imap slack telegram discord sms twilio notification whatsapp'),
  },
  {
    id: 'ai',
    label: 'AI and machine learning',
    words: words('llm openai anthropic embedding ml learning neural transformer langchain rag inference agent'),
  },
  {
    id: 'web',
    label: 'Web, HTTP and scraping',
    words: words('http html scrape scraping crawl crawler browser url web website graphql websocket api request'),
  },
  {
    id: 'data',
    label: 'Data, files and databases',
    words: words(
      'csv json yaml xml parquet sql database dataframe sqlite postgres redis cache zip gzip tar archive ' +
        'compression validation math numeric statistic',
    ),
  },
  {
    id: 'cloud',
    label: 'Cloud services and storage',
    words: words('aws s3 azure gcp cloud storage drive notion stripe payment bucket'),
  },
  {
    id: 'security',
    label: 'Security and cryptography',
    words: words('crypto cryptography encrypt encryption hash jwt password oauth signature tls certificate security'),
  },
  {
    id: 'devops',
    label: 'Developer tools and DevOps',
    words: words(
      'docker kubernetes git github deploy lint linter test bundler typescript cli build package formatter ' +
        'logging log cron scheduling queue job process ssh config',
    ),
  },
  {
    id: 'text',
    label: 'Text and dates',
    words: words('text string markdown translate nlp regex regular diff slug date time language unicode charset'),
  },
];
export const OTHER_CATEGORY: Category = { id: 'other', label: 'Other tools', words: [] };

const WORD_OF = new Map<string, number>();
for (const [i, c] of CATEGORIES.entries()) for (const w of c.words) if (!WORD_OF.has(w)) WORD_OF.set(w, i);

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') ? w.slice(0, -1) : w));

export function categoryOf(c: ToolContract): Category {
  const scores = new Array<number>(CATEGORIES.length).fill(0);
  const add = (words: string[], weight: number) => {
    for (const w of words) {
      const i = WORD_OF.get(w);
      if (i !== undefined) scores[i] = (scores[i] as number) + weight;
    }
  };
  add(wordsOf((c.identity.tags ?? []).join(' ')), 2);
  add(wordsOf(c.identity.task ?? ''), 1);
  let best = -1;
  for (const [i, s] of scores.entries()) if (s > 0 && (best < 0 || s > (scores[best] as number))) best = i;
  return best < 0 ? OTHER_CATEGORY : (CATEGORIES[best] as Category);
}

/** The section a contract is listed in: MCP servers have their own, every other tool its category's. */
export const MCP_SECTION: Category = { id: 'mcp-servers', label: 'MCP servers', words: [] };
export const sectionOf = (c: ToolContract): Category =>
  c.identity.kind === 'mcp_server' ? MCP_SECTION : categoryOf(c);

/** Sections in the order they are shown. */
export const SECTIONS: readonly Category[] = [MCP_SECTION, ...CATEGORIES, OTHER_CATEGORY];
