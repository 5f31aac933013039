// Trust evidence counts distinct clients, so report events carry a client id; never the address itself,
// only a keyed hash of it. The key (salt) is random per installation and lives in DATA_DIR, so the
// hashes cannot be reversed by hashing every IPv4 address, nor linked across installations.
import { createHmac, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../../build/catalog/storage/atomic-fs-driver.ts';

export type ClientHasher = (clientId: string) => string;

const SALT_FILE = 'client-salt';

async function loadSalt(dataDir: string): Promise<string> {
  const file = path.join(dataDir, SALT_FILE);
  const existing = await fsp.readFile(file, 'utf8').catch(() => '');
  if (/^[0-9a-f]{64}$/.test(existing.trim())) return existing.trim();
  // A missing or torn salt (crash while creating it) is replaced; only past hashes lose their link.
  await fsp.mkdir(dataDir, { recursive: true });
  const salt = randomBytes(32).toString('hex');
  await writeFileAtomic(file, salt);
  await fsp.chmod(file, 0o600).catch(() => undefined);
  return salt;
}

/** 16 hex characters (64 bits): collisions among a tool's reporters are negligible. */
export function clientHasherOf(salt: string): ClientHasher {
  return (clientId) => createHmac('sha256', salt).update(clientId).digest('hex').slice(0, 16);
}

export async function loadClientHasher(dataDir: string): Promise<ClientHasher> {
  return clientHasherOf(await loadSalt(dataDir));
}
