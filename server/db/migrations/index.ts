// The one migration set, in order. Each module exports `name` and `up(db, dialect)`.

import * as m0001 from './0001_foundation.ts';
import * as m0002 from './0002_accounts.ts';
import * as m0003 from './0003_permissions.ts';
import * as m0004 from './0004_profile.ts';
import * as m0005 from './0005_jobs.ts';
import * as m0006 from './0006_ads.ts';
import * as m0007 from './0007_phone_reveals.ts';
import * as m0008 from './0008_search.ts';
import * as m0009 from './0009_ad_changes.ts';
import * as m0010 from './0010_saved_searches.ts';
import * as m0011 from './0011_sitemap.ts';
import * as m0012 from './0012_search_prefixes.ts';
import * as m0013 from './0013_ad_words.ts';
import * as m0014 from './0014_search_long_prefixes.ts';
import * as m0015 from './0015_ad_pending_changes.ts';
import * as m0016 from './0016_search_terms.ts';
import * as m0017 from './0017_notifications_list.ts';
import * as m0018 from './0018_chats.ts';
import * as m0019 from './0019_favorites.ts';
import * as m0020 from './0020_saved_search_alerts.ts';
import * as m0021 from './0021_admin_users.ts';
import * as m0022 from './0022_packages.ts';
import * as m0023 from './0023_companies_badges.ts';
import * as m0024 from './0024_places_and_jobs_admin.ts';
import * as m0025 from './0025_banners.ts';
import * as m0026 from './0026_category_redirects.ts';
import * as m0027 from './0027_admin_insight.ts';
import * as m0028 from './0028_ad_counts.ts';
import * as m0029 from './0029_catalogue_keys.ts';
import * as m0030 from './0030_company_packages.ts';
import type { Migration } from './helpers.ts';

export const migrations: Migration[] = [
  m0001,
  m0002,
  m0003,
  m0004,
  m0005,
  m0006,
  m0007,
  m0008,
  m0009,
  m0010,
  m0011,
  m0012,
  m0013,
  m0014,
  m0015,
  m0016,
  m0017,
  m0018,
  m0019,
  m0020,
  m0021,
  m0022,
  m0023,
  m0024,
  m0025,
  m0026,
  m0027,
  m0028,
  m0029,
  m0030,
];
