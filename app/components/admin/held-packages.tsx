// The packages a member or a company holds, running or starting later, as the back office's member
// and company pages list them (docs/product/back-office.md, "Packages"): the package's name with its
// end (or start) date, and what is left of its featured ads and reposts.
import { Box, Text } from '@mantine/core';
import { useDates } from '~/components/relative-time.tsx';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { MemberPackage } from '../../../server/domain/packages/allowance.ts';

export function HeldPackages({ packages }: { packages: MemberPackage[] }) {
  const { t } = useT('admin');
  const { name } = useLocale();
  const dates = useDates();
  return packages.map((p) => (
    <Box key={p.id}>
      <Text size="sm" fw={600}>
        {t(p.current ? 'users.packages.until' : 'users.packages.starts', {
          name: name(p.package),
          date: dates.date(p.current ? p.ends_at : p.starts_at),
        })}
      </Text>
      <Text size="sm" c="dimmed">
        {t('users.packages.counters', {
          ads: p.max_active_ads,
          featured: p.featured_remaining,
          featuredTotal: p.featured_ads,
          reposts: p.reposts_remaining,
          repostsTotal: p.reposts,
        })}
      </Text>
    </Box>
  ));
}
