import { describe, expect, it, vi } from 'vitest';
import { ADMIN_SCREENS, adminScreensFor } from '~/lib/admin-nav.ts';
import { forcedColorMode } from '~/lib/color-mode.ts';
import { isChunkLoadError, RELOAD_THROTTLE_MS, reloadOnce } from '~/lib/version.ts';
import { can, isStaff } from '../../server/domain/access.ts';
import { PERMISSIONS, ROLES } from '../../server/domain/permissions.ts';

const memoryStorage = () => {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
};

describe('chunk-load recovery', () => {
  it('reloads at most once per 10 s per path', () => {
    const storage = memoryStorage();
    const reload = vi.fn();
    expect(reloadOnce('/motors', 1_000_000, storage, reload)).toBe(true);
    expect(reloadOnce('/motors', 1_000_000 + RELOAD_THROTTLE_MS - 1, storage, reload)).toBe(false);
    expect(reloadOnce('/property', 1_000_001, storage, reload)).toBe(true);
    expect(reloadOnce('/motors', 1_000_000 + RELOAD_THROTTLE_MS, storage, reload)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(3);
  });
  it('recognises failed dynamic imports', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});

describe('forced colour mode', () => {
  it('takes the deepest route that forces light or dark', () => {
    expect(forcedColorMode([undefined, { colorMode: 'dark' }, {}])).toBe('dark');
    expect(forcedColorMode([{ colorMode: 'dark' }, { colorMode: 'light' }])).toBe('light');
    expect(forcedColorMode([{}, undefined])).toBeUndefined();
  });
  it('ignores "system" with a warning', () => {
    const warn = vi.fn();
    expect(forcedColorMode([{ colorMode: 'system' }], warn)).toBeUndefined();
    expect(warn).toHaveBeenCalledOnce();
    expect(warn.mock.calls[0][0]).toMatch(/system/);
  });
});

describe('can()', () => {
  const staff = (...permissions: string[]) => ({ is_super_admin: false, permissions });
  it('lets a super admin do everything, with no permission held', () => {
    const admin = { is_super_admin: true, permissions: [] };
    for (const p of [...PERMISSIONS, null]) expect(can(admin, p), String(p)).toBe(true);
  });
  it('lets a staff member do what a directly granted permission allows, and nothing else', () => {
    const one = staff('view-banners');
    expect(can(one, 'view-banners')).toBe(true);
    for (const p of PERMISSIONS.filter((p) => p !== 'view-banners')) expect(can(one, p), p).toBe(false);
    // Any staff member may open what needs no permission (the dashboard).
    expect(can(one, null)).toBe(true);
  });
  it("lets a role's member do exactly what the role grants", () => {
    // accessOf (server/domain/permissions.ts) flattens roles into the permission names can() reads.
    for (const [role, granted] of Object.entries(ROLES)) {
      const user = staff(...granted);
      for (const p of PERMISSIONS) expect(can(user, p), `${role}: ${p}`).toBe(granted.includes(p));
    }
  });
  it('lets a member without permissions, or nobody, do nothing, not even what needs none', () => {
    for (const u of [staff(), null, undefined]) {
      for (const p of [...PERMISSIONS, null]) expect(can(u, p), `${JSON.stringify(u)}: ${p}`).toBe(false);
    }
    expect(isStaff(staff())).toBe(false);
    expect(isStaff(null)).toBe(false);
    expect(isStaff(staff('view-banners'))).toBe(true);
    expect(isStaff({ is_super_admin: true, permissions: [] })).toBe(true);
  });
});

describe('admin sidebar', () => {
  const paths = (u: Parameters<typeof adminScreensFor>[0]) => adminScreensFor(u).map((s) => s.path);
  /** The screens built today and the permission each route's guard checks (app/routes/admin/). */
  const BUILT: [string, string | null][] = [
    ['/admin', null],
    ['/admin/posts', 'view-ads'],
    ['/admin/reports', 'view-ads'],
    ['/admin/users', 'view-users'],
    ['/admin/permissions', 'view-permissions'],
    ['/admin/packages', 'view-packages'],
    ['/admin/companies', 'view-companies'],
    ['/admin/badges', 'view-badges'],
    ['/admin/cities', 'view-cities'],
    ['/admin/banners', 'view-banners'],
    ['/admin/revisions', 'view-revisions'],
    ['/admin/taxonomies', 'view-categories'],
    ['/admin/categories', 'view-categories'],
    ['/admin/jobs', 'view-dashboard'],
    ['/admin/settings', 'super-admin'],
  ];
  const builtFor = (held: readonly string[]) =>
    BUILT.filter(([, p]) => p === null || held.includes(p)).map(([path]) => path);
  it('offers the screens built today, each with the permission its route guard checks', () => {
    expect(ADMIN_SCREENS.filter((s) => s.ready).map((s) => [s.path, s.permission])).toEqual(BUILT);
    // Every screen names a real permission, the super admin, or none.
    for (const s of ADMIN_SCREENS) {
      if (s.permission !== null && s.permission !== 'super-admin') {
        expect(PERMISSIONS as readonly string[], s.path).toContain(s.permission);
      }
    }
  });
  it.each([
    ['a super admin', { is_super_admin: true, permissions: [] }, BUILT.map(([path]) => path)],
    ['a moderator', { is_super_admin: false, permissions: ROLES.moderator }, builtFor(ROLES.moderator)],
    ['support', { is_super_admin: false, permissions: ROLES.support }, builtFor(ROLES.support)],
    [
      'a catalogue editor',
      { is_super_admin: false, permissions: ROLES['catalog-editor'] },
      builtFor(ROLES['catalog-editor']),
    ],
    [
      'staff holding every permission',
      { is_super_admin: false, permissions: [...PERMISSIONS] },
      expect.not.arrayContaining(['/admin/settings']),
    ],
    [
      'staff with view-ads alone',
      { is_super_admin: false, permissions: ['view-ads'] },
      ['/admin', '/admin/posts', '/admin/reports'],
    ],
    [
      'staff with view-banners alone',
      { is_super_admin: false, permissions: ['view-banners'] },
      ['/admin', '/admin/banners'],
    ],
    ['a member', { is_super_admin: false, permissions: [] }, []],
    ['nobody', null, []],
  ])('shows %s exactly the screens they may open', (_who, user, expected) => {
    expect(paths(user)).toEqual(expected);
  });
  it('shows a screen that needs a permission only to those holding it', () => {
    for (const screen of ADMIN_SCREENS.filter((s) => s.ready && s.permission && s.permission !== 'super-admin')) {
      const others = PERMISSIONS.filter((p) => p !== screen.permission);
      expect(paths({ is_super_admin: false, permissions: others }), screen.path).not.toContain(screen.path);
      expect(paths({ is_super_admin: false, permissions: [screen.permission as string] })).toContain(screen.path);
    }
  });
});
