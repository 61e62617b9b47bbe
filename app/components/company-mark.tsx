// A company as an ad shows it (docs/product/companies.md): its logo (or a building), its name and,
// when staff verified it, a check named for screen readers. On the ad page and a member's page it
// links to the company's page; on a card it is part of the card's own link (a link may not hold
// another).
import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import type { CompanyMark as CompanyMarkData } from '../../server/domain/companies/companies.ts';
import { SpriteIcon } from './badge-chip.tsx';
import classes from './company-mark.module.css';

export function CompanyMark({
  company,
  link = false,
  size = 20,
}: {
  company: CompanyMarkData;
  link?: boolean;
  size?: number;
}) {
  const { t } = useT('ads');
  const { name, to } = useLocale();
  const body = (
    <>
      {company.logo ? (
        <img
          src={size > 32 ? company.logo.large : company.logo.small}
          alt=""
          width={size}
          height={size}
          className={classes.logo}
          loading="lazy"
        />
      ) : (
        <SpriteIcon name="store" size={size} className={classes.icon} />
      )}
      <bdi className={classes.name}>{name(company)}</bdi>
      {company.verified ? (
        <span role="img" aria-label={t('company.verified')} title={t('company.verified')} className={classes.verified}>
          <SpriteIcon name="verified-filled" size={16} />
        </span>
      ) : null}
    </>
  );
  return link ? (
    <Link to={to(`/companies/${company.slug}`)} className={`${classes.mark} ${classes.link}`}>
      {body}
    </Link>
  ) : (
    <span className={classes.mark}>{body}</span>
  );
}
