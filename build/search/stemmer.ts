// English stemming in two strengths, from Porter's algorithm (the one lunr ships, written out here
// because its steps are needed apart). Full Porter also strips derivational suffixes (-al, -ic, -ive,
// -ion, -ate, -ity, -ness, -ment ...), and those change what a word names: "functional" became
// "function", "generic" and "generate" "gener", "positive" "posit" like "position", "animal" "anim"
// like "animation". So a term is only the inflectional stem (Porter steps 1 and 5: plurals, -ed,
// -ing, final -y and -e), and words that differ by a verbal suffix (-ion, -ment, -er ...) are a family
// that the expansion table links (expand.ts) and the query plan counts as the typed word (plan.ts).
// Exports:
//   inflectionalStem(word)  lower-case a-z word -> its term ("functions" function, "parsing" pars)
//   derivationalKeys(term)  a term -> its family keys ("validation" and "validat" share "valid")

// Porter's measure m of a stem: the number of vowel-consonant sequences (lunr's expressions).
const c = '[^aeiou]';
const v = '[aeiouy]';
const C = `${c}[^aeiouy]*`;
const V = `${v}[aeiou]*`;
const M_GT0 = new RegExp(`^(${C})?${V}${C}`);
const M_EQ1 = new RegExp(`^(${C})?${V}${C}(${V})?$`);
const M_GT1 = new RegExp(`^(${C})?${V}${C}${V}${C}`);
const HAS_VOWEL = new RegExp(`^(${C})?${v}`);
const CVC = new RegExp(`^${C}${v}[^aeiouwxy]$`);
const DOUBLE = /([^aeiouylsz])\1$/;

/** Porter steps 1a-1c: plural -s/-es/-ies, -ed, -eed, -ing, final consonant+y. */
function step1(word: string): string {
  let w = word;
  if (/(?:ss|i)es$/.test(w)) w = w.slice(0, -2);
  else if (/[^s]s$/.test(w)) w = w.slice(0, -1);
  const eed = /^(.+?)eed$/.exec(w);
  const edIng = eed ? null : /^(.+?)(?:ed|ing)$/.exec(w);
  if (eed) {
    if (M_GT0.test(eed[1]!)) w = w.slice(0, -1);
  } else if (edIng && HAS_VOWEL.test(edIng[1]!)) {
    w = edIng[1]!;
    if (/(?:at|bl|iz)$/.test(w)) w += 'e';
    else if (DOUBLE.test(w)) w = w.slice(0, -1);
    else if (CVC.test(w)) w += 'e';
  }
  const y = /^(.+?[^aeiou])y$/.exec(w);
  return y ? `${y[1]}i` : w;
}

/** Porter step 5: a final -e after a long enough stem, and -ll to -l. */
function step5(word: string): string {
  let w = word;
  const e = /^(.+?)e$/.exec(w);
  if (e && (M_GT1.test(e[1]!) || (M_EQ1.test(e[1]!) && !CVC.test(e[1]!)))) w = e[1]!;
  if (/ll$/.test(w) && M_GT1.test(w)) w = w.slice(0, -1);
  return w;
}

/** Porter without its derivational steps 2-4. Words of fewer than 3 letters are kept, as Porter does. */
export function inflectionalStem(word: string): string {
  if (word.length < 3) return word;
  // Porter treats an initial y as a consonant.
  const y = word[0] === 'y';
  const out = step5(step1(y ? `Y${word.slice(1)}` : word));
  return y ? `y${out.slice(1)}` : out;
}

/**
 * The family keys of a term (an inflectional stem): Porter's steps 2-5 with only the verbal suffixes,
 * on the term and on the term with the -e back that step 5 may have taken off before steps 2-4 would
 * have run ("validat" from "validated" is "validate" there, hence "valid"). Terms sharing a key are
 * one family: validate, validation, validator; encrypt, encryption; perform, performance.
 */
export function derivationalKeys(term: string): string[] {
  if (!/^[a-z]{3,}$/.test(term)) return [];
  const keys = new Set<string>([derive(term)]);
  const withE = `${term}e`;
  if (step5(withE) === term) keys.add(derive(withE));
  return [...keys];
}

// Porter's steps 2-4 without the suffixes that make adjectives, adverbs and abstract nouns (-al, -ic,
// -ive, -ous, -able, -ant, -ent, -ity, -ness, -ism, -ful, -ly): those name something else than their
// base too often (functional, generic, electronic, positive, community). What is left makes nouns of
// verbs and verbs of nouns: -ion, -ation, -ator, -ment, -ance, -ence, -ate, -ize, -izer, -er.
const STEP2: Record<string, string> = {
  enci: 'ence',
  anci: 'ance',
  izer: 'ize',
  ization: 'ize',
  ation: 'ate',
  ator: 'ate',
};
const RE2 = /^(.+?)(enci|anci|izer|ization|ation|ator)$/;
const RE4 = /^(.+?)(?:ance|ence|er|ement|ment|ate|ize)$/;
const RE4_ION = /^(.+?[st])ion$/;

function derive(word: string): string {
  let w = word;
  const m2 = RE2.exec(w);
  if (m2 && M_GT0.test(m2[1]!)) w = m2[1]! + STEP2[m2[2]!];
  const m4 = RE4.exec(w) ?? RE4_ION.exec(w);
  if (m4 && M_GT1.test(m4[1]!)) w = m4[1]!;
  return step5(w);
}
