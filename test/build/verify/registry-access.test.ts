import { describe, expect, it } from 'vitest';
import { registryAccess } from '../../../build/verify/registries.ts';

describe('registryAccess', () => {
  it('mounts the folder above a local simple index, whose pages link ../../files/<wheel>', () => {
    const access = registryAccess({
      npm: 'http://127.0.0.1:4873/',
      pipIndex: 'file:///opt/pypi/simple',
      pipExtraIndexes: ['file:///srv/mirror/simple/'],
      pipFindLinks: ['/opt/wheels', 'file:///opt/more-wheels'],
    });
    expect(access.paths).toEqual(['/opt/pypi', '/srv/mirror', '/opt/wheels', '/opt/more-wheels']);
    expect(access.hosts).toEqual(['127.0.0.1:4873']);
  });
});
