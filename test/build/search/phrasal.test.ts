// Phrasal verbs written as one word (build/search/phrasal.ts): "log in" asks for login, not for a logger.
import { describe, expect, it } from 'vitest';
import { documentFromContract } from '../../../build/search/documents.ts';
import { createSearchIndex } from '../../../build/search/engine.ts';
import { joinPhrasalVerbs } from '../../../build/search/phrasal.ts';
import { lintFillers } from '../../helpers/search-engines.ts';
import { sampleContract } from '../../helpers/temp-catalog.ts';

describe('joinPhrasalVerbs', () => {
  it('joins the listed verb-particle pairs and leaves other pairs alone', () => {
    expect(joinPhrasalVerbs('log in users with oauth')).toBe('login users with oauth');
    expect(joinPhrasalVerbs('back up a database, then set-up the sign up page')).toBe(
      'backup a database, then setup the signup page',
    );
    expect(joinPhrasalVerbs('write logs in json and turn up the volume')).toBe(
      'write logs in json and turn up the volume',
    );
    expect(joinPhrasalVerbs('blog in the catalog')).toBe('blog in the catalog');
  });
});

describe('ranking with phrasal verbs', () => {
  const filler = lintFillers();
  // The logger is the more reliable entry, and "log" is its whole topic.
  const logger = sampleContract('npm-fast-log-v1', {
    identity: { task: 'Log messages to a file', tags: ['log', 'logger'] },
    trust: { reliability_score: 0.97 },
  });
  const login = sampleContract('npm-oauth-login-v1', {
    identity: { task: 'Add OAuth login to a web app', tags: ['oauth'] },
    trust: { reliability_score: 0.8 },
  });
  const docs = [...filler, logger, login].map(documentFromContract);

  it('finds the login tool for "log in", and the logger for "log"', () => {
    // A summary saying "log in" meets a query saying "login" too.
    const other = createSearchIndex([
      ...docs,
      documentFromContract(
        sampleContract('npm-sso-v1', { identity: { task: 'Log in with single sign-on', tags: ['sso'] } }),
      ),
    ]);
    expect(other.engine.search('sso login', { limit: 1 })[0]?.id).toBe('npm-sso-v1');
    const { engine } = createSearchIndex(docs);
    expect(engine.search('log in with oauth', { limit: 1 })[0]?.id).toBe('npm-oauth-login-v1');
    expect(engine.search('login', { limit: 1 })[0]?.id).toBe('npm-oauth-login-v1');
    expect(engine.search('log messages', { limit: 1 })[0]?.id).toBe('npm-fast-log-v1');
  });
});
