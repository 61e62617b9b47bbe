// The home hero's carousel (@mantine/carousel), loaded by ./hero-banners.tsx only when the hero
// holds more than one banner, after hydration. Controls of 44 px with words in the page's language;
// the slide's position is announced in the page's language too (Mantine's own status is English, so
// it is hidden from assistive technology).
import '@mantine/carousel/styles.css';
import { Carousel } from '@mantine/carousel';
import { VisuallyHidden } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useT } from '~/i18n/use-t.ts';
import { BannerLink, type PublicBanner } from './banner.tsx';

export default function HeroCarousel({ banners }: { banners: readonly PublicBanner[] }) {
  const { t } = useT('common');
  const root = useRef<HTMLDivElement>(null);
  const [selected, setSelected] = useState(0);
  useEffect(() => {
    root.current?.querySelector(':scope > [role="status"]')?.setAttribute('aria-hidden', 'true');
  }, []);
  return (
    <div>
      <Carousel
        ref={root}
        slideSize="100%"
        slideGap={0}
        controlSize={44}
        withIndicators={false}
        emblaOptions={{ loop: true }}
        onSlideChange={setSelected}
        aria-roledescription={t('banner.carousel')}
        previousControlProps={{ 'aria-label': t('banner.previous') }}
        nextControlProps={{ 'aria-label': t('banner.next') }}
        data-testid="hero-carousel"
      >
        {banners.map((b, i) => (
          <Carousel.Slide key={b.id}>
            <BannerLink banner={b} priority={i === 0} lazy={i > 0} />
          </Carousel.Slide>
        ))}
      </Carousel>
      <VisuallyHidden role="status" aria-live="polite">
        {t('banner.position', { n: selected + 1, total: banners.length })}
      </VisuallyHidden>
    </div>
  );
}
