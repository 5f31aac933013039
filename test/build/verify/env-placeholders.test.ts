// Placeholder values for an MCP server's required environment variables take the shape the variable needs:
// servers check their configuration at start, and an opaque text where a URL, a port or a folder belongs stops
// them before they list their tools.
import { describe, expect, it } from 'vitest';
import { envPlaceholder, PLACEHOLDER_ENV_VALUE, requiredEnvVars } from '../../../build/verify/env-placeholders.ts';

const value = (v: Parameters<typeof envPlaceholder>[0]) => envPlaceholder(v).value;

describe('envPlaceholder', () => {
  it('takes what the registry says first: default, first choice, then the format', () => {
    expect(value({ name: 'LOG_LEVEL', default: 'info', choices: ['debug', 'info'] })).toBe('info');
    expect(value({ name: 'LOG_LEVEL', choices: ['debug', 'info'] })).toBe('debug');
    expect(value({ name: 'FEATURE_X', format: 'boolean' })).toBe('false');
    expect(value({ name: 'BATCH', format: 'number' })).toMatch(/^\d+$/);
    expect(envPlaceholder({ name: 'CONFIG', format: 'filepath' })).toMatchObject({ shape: 'path' });
  });

  it('shapes URLs, ports, hosts, numbers, booleans and paths by name and description', () => {
    expect(() => new URL(value({ name: 'JIRA_BASE_URL' }))).not.toThrow();
    expect(value({ name: 'API_ENDPOINT' })).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    expect(value({ name: 'DATABASE_URL', description: 'PostgreSQL connection string' })).toMatch(/^postgresql:\/\//);
    expect(value({ name: 'CACHE', description: 'Redis URL, e.g. redis://localhost:6379/0' })).toBe(
      'redis://localhost:6379/0',
    );
    expect(value({ name: 'SMTP_PORT' })).toMatch(/^\d+$/);
    expect(value({ name: 'REQUEST_TIMEOUT_MS' })).toBe('30000');
    expect(value({ name: 'DB_HOST' })).toBe('127.0.0.1');
    expect(value({ name: 'READ_ONLY' })).toBe('false');
    expect(envPlaceholder({ name: 'NOTES_DIR' })).toMatchObject({
      shape: 'path',
      value: '/work/.env-paths/notes_dir',
      create: { kind: 'dir' },
    });
    expect(envPlaceholder({ name: 'SETTINGS', description: 'Path to the JSON settings file' })).toMatchObject({
      value: '/work/.env-paths/settings.json',
      create: { kind: 'file', sample: 'sample.json' },
    });
  });

  it('keeps keys opaque (their descriptions say where to get one), unless the registry shows the form', () => {
    expect(value({ name: 'ACME_API_KEY', description: 'Key from the dashboard URL https://acme.test/keys' })).toBe(
      PLACEHOLDER_ENV_VALUE,
    );
    expect(value({ name: 'GITHUB_TOKEN', placeholder: 'ghp_xxxxxxxxxxxx' })).toBe('ghp_xxxxxxxxxxxx');
    expect(value({ name: 'ACME_REGION' })).toBe('us-east-1');
  });
});

describe('requiredEnvVars', () => {
  it('keeps the required variables with what the registry says, then names from requires.env, each once', () => {
    const vars = requiredEnvVars(
      [
        { name: 'A_URL', is_required: true, format: 'string' },
        { name: 'OPTIONAL', is_required: false },
      ],
      ['A_URL', 'B_KEY'],
    );
    expect(vars).toEqual([{ name: 'A_URL', is_required: true, format: 'string' }, { name: 'B_KEY' }]);
  });
});
