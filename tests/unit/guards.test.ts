import { describe, expect, it } from 'vitest';
import { type GuardName, guards } from '~/lib/guards.server.ts';

describe('route guards', () => {
  it('knows auth, guest, admin and acl:<permission>', () => {
    expect(guards('auth', 'guest', 'admin', 'acl:view-ads')).toHaveLength(4);
  });
  it('refuses an unknown guard when the route module loads', () => {
    expect(() => guards('staff' as GuardName)).toThrow('Unknown route middleware: staff');
    expect(() => guards('acl:fly-planes')).toThrow('Unknown route middleware: acl:fly-planes');
  });
});
