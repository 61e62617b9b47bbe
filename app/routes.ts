// Every page route is registered twice: Arabic without a prefix, English under /en (docs/product/site.md).
import { index, layout, prefix, type RouteConfig, type RouteConfigEntry, route } from '@react-router/dev/routes';

type Locale = 'ar' | 'en';

function pages(l: Locale): RouteConfigEntry[] {
  const id = (name: string) => `${l}.${name}`;
  return [
    layout('components/layouts/simple-layout.tsx', { id: id('layout.simple') }, [
      route('login', 'routes/account/login.tsx', { id: id('login') }),
      route('register', 'routes/account/register.tsx', { id: id('register') }),
      route('account/forget-password', 'routes/account/forget-password.tsx', { id: id('forget-password') }),
      route('account/reset-password', 'routes/account/reset-password.tsx', { id: id('reset-password') }),
      route('account/email-verification', 'routes/account/email-verification.tsx', { id: id('email-verification') }),
      route('account/phone-verification', 'routes/account/phone-verification.tsx', { id: id('phone-verification') }),
      route('unsubscribe/:token', 'routes/profile/unsubscribe.tsx', { id: id('unsubscribe') }),
    ]),
    route('logout', 'routes/account/logout.tsx', { id: id('logout') }),
    layout('components/layouts/admin-layout.tsx', { id: id('layout.admin') }, [
      route('admin', 'routes/admin/dashboard.tsx', { id: id('admin.dashboard') }),
      route('admin/posts', 'routes/admin/posts.tsx', { id: id('admin.posts') }),
      route('admin/posts/:id', 'routes/admin/post.tsx', { id: id('admin.post') }),
      route('admin/cities', 'routes/admin/cities.tsx', { id: id('admin.cities') }),
      route('admin/cities/:id/areas', 'routes/admin/city-areas.tsx', { id: id('admin.city-areas') }),
      route('admin/jobs', 'routes/admin/jobs.tsx', { id: id('admin.jobs') }),
      route('admin/settings', 'routes/admin/settings.tsx', { id: id('admin.settings') }),
      route('admin/packages', 'routes/admin/packages.tsx', { id: id('admin.packages') }),
      route('admin/packages/new', 'routes/admin/package.tsx', { id: id('admin.package.new') }),
      route('admin/packages/subscriptions', 'routes/admin/subscriptions.tsx', { id: id('admin.subscriptions') }),
      route('admin/packages/grant', 'routes/admin/grant-package.tsx', { id: id('admin.grant-package') }),
      route('admin/packages/:id', 'routes/admin/package.tsx', { id: id('admin.package') }),
      route('admin/users', 'routes/admin/users.tsx', { id: id('admin.users') }),
      route('admin/users/:id', 'routes/admin/user.tsx', { id: id('admin.user') }),
      route('admin/permissions', 'routes/admin/permissions.tsx', { id: id('admin.permissions') }),
      route('admin/banners', 'routes/admin/banners.tsx', { id: id('admin.banners') }),
      route('admin/banners/new', 'routes/admin/banner.tsx', { id: id('admin.banner-new') }),
      route('admin/banners/:id', 'routes/admin/banner.tsx', { id: id('admin.banner') }),
      route('admin/companies', 'routes/admin/companies.tsx', { id: id('admin.companies') }),
      route('admin/companies/new', 'routes/admin/company.tsx', { id: id('admin.company.new') }),
      route('admin/companies/:id', 'routes/admin/company.tsx', { id: id('admin.company') }),
      route('admin/badges', 'routes/admin/badges.tsx', { id: id('admin.badges') }),
      route('admin/badges/new', 'routes/admin/badge.tsx', { id: id('admin.badge.new') }),
      route('admin/badges/:id', 'routes/admin/badge.tsx', { id: id('admin.badge') }),
      route('admin/reports', 'routes/admin/reports.tsx', { id: id('admin.reports') }),
      route('admin/reports/:id', 'routes/admin/report.tsx', { id: id('admin.report') }),
      route('admin/revisions', 'routes/admin/revisions.tsx', { id: id('admin.revisions') }),
      route('admin/revisions/:id', 'routes/admin/revision.tsx', { id: id('admin.revision') }),
      route('admin/taxonomies', 'routes/admin/taxonomies.tsx', { id: id('admin.taxonomies') }),
      route('admin/taxonomies/:id/attributes', 'routes/admin/taxonomy-attributes.tsx', {
        id: id('admin.taxonomy-attributes'),
      }),
      // `/admin/categories/{taxonomy}/{category…}` and the same path ending in `/attributes`.
      route('admin/categories/*', 'routes/admin/categories.tsx', { id: id('admin.categories') }),
    ]),
    layout('components/layouts/default-layout.tsx', { id: id('layout.default') }, [
      index('routes/public/home.tsx', { id: id('home') }),
      ...(['faq', 'about', 'terms', 'privacy', 'support'] as const).map((page) =>
        route(page, 'routes/public/info-page.tsx', { id: id(`page.${page}`) }),
      ),
      route('contact', 'routes/public/contact.tsx', { id: id('contact') }),
      route('place-your-ad', 'routes/ads/place-start.tsx', { id: id('place-your-ad') }),
      route('place-your-ad/:taxonomy/*', 'routes/ads/place-ad.tsx', { id: id('place-your-ad.category') }),
      route('profile', 'routes/profile/settings.tsx', { id: id('profile') }),
      route('profile/posts', 'routes/profile/posts.tsx', { id: id('profile.posts') }),
      route('profile/posts/:taxonomy/:category/:ad', 'routes/profile/own-ad.tsx', { id: id('profile.own-ad') }),
      route('profile/posts/:taxonomy/:category/:ad/edit', 'routes/profile/edit-ad.tsx', { id: id('profile.edit-ad') }),
      route('profile/posts/:taxonomy/:category/:ad/repost', 'routes/profile/repost-ad.tsx', {
        id: id('profile.repost-ad'),
      }),
      route('notifications', 'routes/profile/notifications.tsx', { id: id('notifications') }),
      route('searches', 'routes/profile/searches.tsx', { id: id('searches') }),
      route('chats', 'routes/chats/list.tsx', { id: id('chats') }),
      route('chats/new/:ad', 'routes/chats/start.tsx', { id: id('chats.start') }),
      route('chats/:id', 'routes/chats/thread.tsx', { id: id('chats.thread') }),
      route('favorites', 'routes/profile/favorites.tsx', { id: id('favorites') }),
      route('posts', 'routes/search/posts.tsx', { id: id('posts') }),
      route('users/:id', 'routes/ads/user-page.tsx', { id: id('user') }),
      route('companies/:slug', 'routes/companies/company-page.tsx', { id: id('company') }),
      // Before `:taxonomy/:category`, whose first segment could read "posts".
      route('posts/map', 'routes/search/posts-map.tsx', { id: id('posts.map') }),
      route(':taxonomy', 'routes/catalog/taxonomy.tsx', { id: id('taxonomy') }),
      route(':taxonomy/:category', 'routes/catalog/category.tsx', { id: id('category') }),
      route(':taxonomy/:category/:ad', 'routes/ads/ad-page.tsx', { id: id('ad') }),
      route('*', 'routes/public/not-found.tsx', { id: id('not-found') }),
    ]),
  ];
}

export default [...pages('ar'), ...prefix('en', pages('en'))] satisfies RouteConfig;
