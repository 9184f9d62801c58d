import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hostShared, previousBuildGraceMs, sharedSingletons, youngerThanGrace } from './index';

describe('files of earlier builds', () => {
  it('are kept through the grace period and removed after it', () => {
    const dist = mkdtempSync(path.join(tmpdir(), 'portal-dist-'));
    try {
      writeFileSync(path.join(dist, '215.f5c5aa63fd.js'), '/* an hour old */');
      writeFileSync(path.join(dist, '216.0a1b2c3d4e.js'), '/* two days old */');
      const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000);
      utimesSync(path.join(dist, '215.f5c5aa63fd.js'), hoursAgo(1), hoursAgo(1));
      utimesSync(path.join(dist, '216.0a1b2c3d4e.js'), hoursAgo(48), hoursAgo(48));
      const keep = youngerThanGrace(dist, previousBuildGraceMs({}));
      expect(keep('215.f5c5aa63fd.js')).toBe(true);
      expect(keep('216.0a1b2c3d4e.js')).toBe(false);
      expect(keep('gone.js')).toBe(false);
      expect(youngerThanGrace(dist, previousBuildGraceMs({ PREVIOUS_BUILD_GRACE_HOURS: '0' }))('215.f5c5aa63fd.js')).toBe(false);
    } finally {
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it('reads the grace period from the environment, 24 hours by default', () => {
    expect(previousBuildGraceMs({})).toBe(24 * 3_600_000);
    expect(previousBuildGraceMs({ PREVIOUS_BUILD_GRACE_HOURS: '2' })).toBe(2 * 3_600_000);
    expect(previousBuildGraceMs({ PREVIOUS_BUILD_GRACE_HOURS: 'soon' })).toBe(24 * 3_600_000);
  });
});

describe('what the shell shares', () => {
  it('puts the singletons every page uses in its entry and leaves the query cache a chunk of its own', () => {
    const host = hostShared();
    const remote = sharedSingletons();
    for (const key of ['react', 'react-dom/', 'styled-components', '@portal/web-core'])
      expect(host[key]).toMatchObject({ eager: true, singleton: true });
    expect(host['@portal/web-core/query']).not.toHaveProperty('eager');
    expect(host['@tanstack/react-query']).not.toHaveProperty('eager');
    // A remote never bundles its own copy: it takes the shell's.
    for (const value of Object.values(remote)) expect(value).not.toHaveProperty('eager');
  });
});
