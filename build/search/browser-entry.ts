// Browser entry of the /search/ page (bundled into /search/search.js by bundle.ts): wires the form
// to StaticSearch. Index files are fetched relative to this script, so the page works from any
// CDN prefix. Results are built with DOM APIs (textContent), never innerHTML.
import { type StaticHit, StaticSearch } from './client.ts';

const base = new URL('.', import.meta.url);
const fetchJson = async (rel: string): Promise<unknown> => {
  const res = await fetch(new URL(rel, base));
  if (!res.ok) throw new Error(`${rel}: HTTP ${res.status}`);
  return res.json();
};

let engine: Promise<StaticSearch> | null = null;
const open = () =>
  (engine ??= StaticSearch.open(fetchJson).catch((e: unknown) => {
    engine = null;
    throw e;
  }));

function render(list: HTMLOListElement, hits: StaticHit[]): void {
  const items = hits.map((h) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `/tools/${encodeURIComponent(h.id)}/`;
    a.textContent = h.name;
    const meta = document.createElement('span');
    const score = h.score >= 10 ? String(Math.round(h.score)) : h.score.toFixed(2);
    meta.textContent = ` · ${h.platform} · reliability ${h.reliability.toFixed(2)} · score ${score}`;
    const task = document.createElement('p');
    task.textContent = h.task;
    li.append(a, meta, task);
    return li;
  });
  list.replaceChildren(...items);
}

function start(): void {
  const form = document.getElementById('search-form') as HTMLFormElement | null;
  const input = document.getElementById('q') as HTMLInputElement | null;
  const status = document.getElementById('search-status');
  const list = document.getElementById('search-results') as HTMLOListElement | null;
  if (!form || !input || !status || !list) return;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async () => {
    const q = input.value;
    const mine = ++seq;
    status.textContent = 'Searching…';
    try {
      const hits = await (await open()).search(q, { limit: 10 });
      if (mine !== seq) return; // a newer query is on its way
      render(list, hits);
      status.textContent = q.trim()
        ? `${hits.length} result${hits.length === 1 ? '' : 's'} for “${q.trim()}”`
        : 'Most reliable tools';
      const url = new URL(location.href);
      if (q.trim()) url.searchParams.set('q', q);
      else url.searchParams.delete('q');
      history.replaceState(null, '', url);
    } catch (e) {
      if (mine === seq) status.textContent = `Search is unavailable (${e instanceof Error ? e.message : String(e)}).`;
    }
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearTimeout(timer);
    void run();
  });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 120);
  });
  input.addEventListener('focus', () => void open().catch(() => undefined), { once: true }); // warm the manifest
  const initial = new URL(location.href).searchParams.get('q');
  if (initial) {
    input.value = initial;
    void run();
  }
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
