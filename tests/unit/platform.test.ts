import { describe, expect, it, vi } from 'vitest';
import { ADMIN_SCREENS, adminScreensFor, isStaff } from '~/lib/admin-nav.ts';
import { forcedColorMode } from '~/lib/color-mode.ts';
import { isChunkLoadError, RELOAD_THROTTLE_MS, reloadOnce } from '~/lib/version.ts';

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

describe('admin sidebar', () => {
  const ready = (screens: typeof ADMIN_SCREENS) => screens.filter((s) => s.ready).map((s) => s.path);
  it('shows a staff member only the built screens their permissions open', () => {
    const moderator = { is_super_admin: false, permissions: ['view-ads', 'approve-ads'] };
    const visible = adminScreensFor(moderator).map((s) => s.path);
    expect(visible).toContain('/admin');
    expect(visible).not.toContain('/admin/users');
    expect(visible.every((p) => ready(ADMIN_SCREENS).includes(p))).toBe(true);
  });
  it('shows every built screen to a super admin and nothing to a member', () => {
    expect(adminScreensFor({ is_super_admin: true, permissions: [] }).map((s) => s.path)).toEqual(ready(ADMIN_SCREENS));
    expect(adminScreensFor({ is_super_admin: false, permissions: [] })).toEqual([]);
    expect(isStaff(null)).toBe(false);
  });
});
