// The home page's hero banners (docs/product/back-office.md, "Banners"). One banner is plain HTML.
// Several are first a row of slides swiped natively (plain HTML too, the first one in view), and
// become the carousel (./hero-carousel.tsx, @mantine/carousel) once the page is hydrated — which
// happens after the page has loaded (ADR 0013) — so the carousel's script is never in a page's first
// load and never fetched for a single banner. The box keeps its shape throughout: nothing moves.
import { type ComponentType, useEffect, useState } from 'react';
import { useT } from '~/i18n/use-t.ts';
import { BannerLink, bannerClasses, type PublicBanner } from './banner.tsx';

type CarouselProps = { banners: readonly PublicBanner[] };

export function HeroBanners({ banners }: CarouselProps) {
  const { t } = useT('common');
  const [Carousel, setCarousel] = useState<ComponentType<CarouselProps> | null>(null);
  const several = banners.length > 1;
  useEffect(() => {
    if (!several) return;
    let live = true;
    import('./hero-carousel.tsx').then(
      (m) => {
        if (live) setCarousel(() => m.default);
      },
      () => {
        // The row of slides stays: it works without the script.
      },
    );
    return () => {
      live = false;
    };
  }, [several]);
  const first = banners[0];
  if (!first) return null;
  return (
    <section aria-label={t('banner.hero')} data-testid="hero-banners">
      {Carousel ? (
        <Carousel banners={banners} />
      ) : several ? (
        <div className={bannerClasses.strip}>
          {banners.map((b, i) => (
            <BannerLink key={b.id} banner={b} priority={i === 0} lazy={i > 0} />
          ))}
        </div>
      ) : (
        <BannerLink banner={first} priority />
      )}
    </section>
  );
}
