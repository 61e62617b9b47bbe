import { Link } from 'react-router';
import { useT } from '~/i18n/use-t.ts';
import { useLocale } from '~/lib/use-locale.ts';
import classes from './layouts.module.css';

export const INFO_PAGES = ['about', 'faq', 'support', 'contact', 'terms', 'privacy'] as const;

export function SiteFooter() {
  const { t } = useT();
  const { to } = useLocale();
  return (
    <footer className={classes.footer}>
      <div className={classes.footerBody}>
        <nav aria-label={t('footer.nav-label')}>
          <ul className={classes.footerLinks}>
            {INFO_PAGES.map((page) => (
              <li key={page}>
                <Link to={to(`/${page}`)} className={classes.footerLink}>
                  {t(`footer.${page}`)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <p className={classes.footerNote}>{t('footer.tagline')}</p>
        <p className={classes.footerNote}>{t('footer.copyright', { year: new Date().getFullYear() })}</p>
      </div>
    </footer>
  );
}
