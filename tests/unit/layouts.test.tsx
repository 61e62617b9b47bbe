// The layouts render in both directions, and the admin sidebar lists only permitted screens.
import { DirectionProvider, MantineProvider } from '@mantine/core';
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, UNSAFE_ErrorResponseImpl as ErrorResponse, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ErrorPage } from '~/components/error-page.tsx';
import { AdminFrame } from '~/components/layouts/admin-layout.tsx';
import { SimpleFrame } from '~/components/layouts/simple-layout.tsx';
import ar from '~/i18n/bundle-ar.ts';
import en from '~/i18n/bundle-en.ts';
import { createTranslator } from '~/i18n/translator.ts';
import { I18nContext } from '~/i18n/use-t.ts';
import { theme } from '~/lib/theme.ts';

function render(path: string, element: ReactNode) {
  const locale = path.startsWith('/en') ? 'en' : 'ar';
  const i18n = createTranslator(locale, locale === 'en' ? en : ar);
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: [path] });
  return renderToString(
    <I18nContext value={i18n}>
      <DirectionProvider initialDirection={locale === 'ar' ? 'rtl' : 'ltr'} detectDirection={false}>
        <MantineProvider theme={theme}>
          <RouterProvider router={router} />
        </MantineProvider>
      </DirectionProvider>
    </I18nContext>,
  );
}

describe('admin layout', () => {
  /** The sidebar's links (the navbar is the only place admin screens are linked from). */
  const adminLinks = (html: string) => [...html.matchAll(/href="([^"]*\/admin[^"]*)"/g)].map((m) => m[1]);
  it("lists the screens a staff member with view-ads may open, in the page's language", () => {
    const html = render(
      '/en/admin',
      <AdminFrame user={{ is_super_admin: false, permissions: ['view-ads'] }}>x</AdminFrame>,
    );
    expect(adminLinks(html)).toEqual(['/en/admin', '/en/admin/posts']);
    expect(html).toContain('Dashboard');
    expect(html).toContain('>Ads<');
  });
  it('leaves out the ads screen for staff without view-ads', () => {
    const html = render(
      '/en/admin',
      <AdminFrame user={{ is_super_admin: false, permissions: ['view-banners'] }}>x</AdminFrame>,
    );
    expect(adminLinks(html)).toEqual(['/en/admin']);
    expect(html).not.toContain('>Ads<');
  });
  it('lists every built screen to a super admin, in Arabic without a prefix', () => {
    const html = render('/admin', <AdminFrame user={{ is_super_admin: true, permissions: [] }}>x</AdminFrame>);
    expect(adminLinks(html)).toEqual(['/admin', '/admin/posts', '/admin/taxonomies', '/admin/categories']);
    expect(html).toContain('لوحة المعلومات');
    expect(html).toContain('>الإعلانات<');
  });
});

describe('simple layout', () => {
  it('centres its content under the logo with a way home', () => {
    const html = render('/en/login', <SimpleFrame>form here</SimpleFrame>);
    expect(html).toContain('form here');
    expect(html).toContain('Back to the home page');
    expect(html).toContain('href="/en"');
  });
});

describe('error page', () => {
  it('says 404, 403 and 500 in the page language', () => {
    expect(render('/en/x', <ErrorPage error={new ErrorResponse(404, 'Page not found: /en/x', null)} />)).toContain(
      'Page Not Found',
    );
    expect(render('/x', <ErrorPage error={new ErrorResponse(404, 'Page not found: /x', null)} />)).toContain(
      'الصفحة غير موجودة',
    );
    const forbidden = render('/en/admin/users', <ErrorPage error={new ErrorResponse(403, 'Forbidden', null)} />);
    expect(forbidden).toContain('You may not open this page');
    expect(forbidden).toContain('403');
    expect(render('/admin/users', <ErrorPage error={new ErrorResponse(403, 'Forbidden', null)} />)).toContain(
      'غير مسموح لك بفتح هذه الصفحة',
    );
    expect(render('/en', <ErrorPage error={new ErrorResponse(500, 'Internal Server Error', null)} />)).toContain(
      'Internal Server Error',
    );
  });
});
