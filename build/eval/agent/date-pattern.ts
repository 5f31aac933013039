// A date format pattern from the example the need shows: "format 2024-07-04 as 'Thursday, July 4, 2024'" asks
// for the pattern that renders that date so, and an agent writes it in the syntax the contract's own example
// uses (date-fns and Luxon `EEEE, MMMM d, yyyy`, Moment and Day.js `dddd, MMMM D, YYYY`, strftime `%A, %B %-d,
// %Y`). Leaving the default instead prints the date in another form. Pure.

type Dialect = 'unicode' | 'moment' | 'strftime';
type Part =
  | 'year'
  | 'year2'
  | 'month'
  | 'month2'
  | 'monthName'
  | 'monthShort'
  | 'day'
  | 'day2'
  | 'weekday'
  | 'weekdayShort'
  | 'hour'
  | 'hour2'
  | 'minute2'
  | 'second2';

const TOKENS: Record<Dialect, Record<Part, string>> = {
  unicode: {
    year: 'yyyy',
    year2: 'yy',
    month: 'M',
    month2: 'MM',
    monthName: 'MMMM',
    monthShort: 'MMM',
    day: 'd',
    day2: 'dd',
    weekday: 'EEEE',
    weekdayShort: 'EEE',
    hour: 'H',
    hour2: 'HH',
    minute2: 'mm',
    second2: 'ss',
  },
  moment: {
    year: 'YYYY',
    year2: 'YY',
    month: 'M',
    month2: 'MM',
    monthName: 'MMMM',
    monthShort: 'MMM',
    day: 'D',
    day2: 'DD',
    weekday: 'dddd',
    weekdayShort: 'ddd',
    hour: 'H',
    hour2: 'HH',
    minute2: 'mm',
    second2: 'ss',
  },
  strftime: {
    year: '%Y',
    year2: '%y',
    month: '%-m',
    month2: '%m',
    monthName: '%B',
    monthShort: '%b',
    day: '%-d',
    day2: '%d',
    weekday: '%A',
    weekdayShort: '%a',
    hour: '%-H',
    hour2: '%H',
    minute2: '%M',
    second2: '%S',
  },
};

/** The pattern syntax a contract's example or default is written in, or null when it is no date pattern. */
export function patternDialect(example: string): Dialect | null {
  if (/%[YmdHMSyBbAa]/.test(example)) return 'strftime';
  if (/YYYY|DD/.test(example)) return 'moment';
  if (/yyyy|dd/.test(example)) return 'unicode';
  return null;
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** What each part of the date reads as, most specific first (a padded form before the plain one). */
function renderings(date: Date, withTime: boolean): [Part, string][] {
  const pad = (n: number) => String(n).padStart(2, '0');
  const y = date.getUTCFullYear();
  const m = date.getUTCMonth();
  const d = date.getUTCDate();
  const out: [Part, string][] = [
    ['year', String(y)],
    ['monthName', MONTHS[m] as string],
    ['weekday', WEEKDAYS[date.getUTCDay()] as string],
    ['monthShort', (MONTHS[m] as string).slice(0, 3)],
    ['weekdayShort', (WEEKDAYS[date.getUTCDay()] as string).slice(0, 3)],
    ['month2', pad(m + 1)],
    ['day2', pad(d)],
    ['month', String(m + 1)],
    ['day', String(d)],
    ['year2', pad(y % 100)],
  ];
  if (withTime) {
    const h = date.getUTCHours();
    out.push(['hour2', pad(h)], ['hour', String(h)], ['minute2', pad(date.getUTCMinutes())]);
    out.push(['second2', pad(date.getUTCSeconds())]);
  }
  return out;
}

/** Literal text in a pattern, quoted as the dialect wants it. */
function literal(text: string, dialect: Dialect): string {
  if (!/[A-Za-z]/.test(text)) return dialect === 'strftime' ? text.replace(/%/g, '%%') : text;
  if (dialect === 'strftime') return text.replace(/%/g, '%%');
  return dialect === 'moment' ? `[${text}]` : `'${text.replace(/'/g, "''")}'`;
}

/**
 * The pattern that renders `isoDate` as `shown`, in the dialect of `example`; null when the example is no date
 * pattern, the date does not parse, or some word or number of `shown` is no part of the date.
 */
export function datePatternFor(shown: string, isoDate: string, example: string): string | null {
  const dialect = patternDialect(example);
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(isoDate.trim());
  if (!dialect || !m) return null;
  const date = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0)));
  const forms = renderings(date, m[4] !== undefined);
  const used = new Set<Part>();
  let pattern = '';
  for (const run of shown.match(/[A-Za-z]+|\d+|[^A-Za-z\d]+/g) ?? []) {
    if (!/[A-Za-z\d]/.test(run)) {
      pattern += literal(run, dialect);
      continue;
    }
    // Each part once, in the order the renderings list them (so "4" is the day once the month has been 7).
    const hit = forms.find(([part, text]) => !used.has(part) && text.toLowerCase() === run.toLowerCase());
    if (!hit) return null;
    used.add(hit[0]);
    pattern += TOKENS[dialect][hit[0]];
  }
  return used.size ? pattern : null;
}

/** The quoted texts of a need ('…' or "…"), the examples it shows. */
export function quotedTexts(need: string): string[] {
  return [...need.matchAll(/'([^']+)'|"([^"]+)"|‘([^’]+)’|“([^”]+)”/g)].map((q) => q[1] ?? q[2] ?? q[3] ?? q[4] ?? '');
}
