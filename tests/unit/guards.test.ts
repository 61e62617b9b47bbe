// What each guard does to each kind of visitor is tested with real sessions in tests/db/guards.test.ts.
import { describe, expect, it } from 'vitest';
import { type GuardName, guards } from '~/lib/guards.server.ts';

describe('route guards', () => {
  it('refuses an unknown guard when the route module loads', () => {
    expect(() => guards('staff' as GuardName)).toThrow('Unknown route middleware: staff');
    expect(() => guards('acl:fly-planes')).toThrow('Unknown route middleware: acl:fly-planes');
    expect(() => guards('auth', 'guest', 'admin', 'acl:view-ads')).not.toThrow();
  });
});
