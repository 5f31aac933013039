// A GitHub repository: metadata from GET /repos/{owner}/{repo} (name, description, topics, licence as
// spdx_id), version from the latest release's tag, install and execute commands from the README.
import { fetchUpstreamJson, type UpstreamConfig, UpstreamError } from './upstream-fetch.ts';
import { aidOf, type Draft, line, spdxOf, tagsOf } from './common.ts';
import { readmeCommands } from './readme.ts';

interface Repo {
  name?: unknown;
  full_name?: unknown;
  description?: unknown;
  topics?: unknown;
  license?: { spdx_id?: unknown } | null;
  html_url?: unknown;
}

const NAME = 'GitHub';

/** Optional parts of a repository (release, README) may be absent: that leaves a field null. */
async function optional<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (error) {
    if (error instanceof UpstreamError && error.status === 404) return null;
    throw error;
  }
}

export async function githubDraft(owner: string, repo: string, cfg: UpstreamConfig): Promise<Draft> {
  const api = `${cfg.githubApi}/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
  const headers = {
    accept: 'application/vnd.github+json',
    ...(cfg.githubToken ? { authorization: `Bearer ${cfg.githubToken}` } : {}),
  };
  const meta = (await fetchUpstreamJson(api, cfg, NAME, { headers })) as Repo;
  const [release, readme] = await Promise.all([
    optional(fetchUpstreamJson(`${api}/releases/latest`, cfg, NAME, { headers })) as Promise<{
      tag_name?: unknown;
    } | null>,
    optional(fetchUpstreamJson(`${api}/readme`, cfg, NAME, { headers })) as Promise<{
      content?: unknown;
      encoding?: unknown;
    } | null>,
  ]);
  const name = typeof meta.name === 'string' && /^[\w.-]{1,100}$/.test(meta.name) ? meta.name : repo;
  const tag = line(release?.tag_name, 100);
  const text =
    readme && typeof readme.content === 'string' && readme.encoding === 'base64'
      ? Buffer.from(readme.content, 'base64').toString('utf8')
      : '';
  const cmds = readmeCommands(text, name.toLowerCase());
  return {
    aid: aidOf('github', `${owner}-${repo}`),
    name,
    version: tag ? tag.replace(/^v(?=\d)/, '') : null,
    task: line(meta.description, 500),
    tags: tagsOf(meta.topics),
    platform: 'github',
    license: spdxOf(meta.license?.spdx_id),
    source_url: `https://github.com/${owner}/${repo}`,
    ...cmds,
  };
}
