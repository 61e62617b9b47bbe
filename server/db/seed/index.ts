// Reference data: the real catalogue (taxonomies, categories, attributes) and Libyan cities with areas.
// Idempotent: rows are matched by slug, so running it twice adds nothing.
import type { Kysely, Transaction } from 'kysely';
import { createTaxonomy } from '../../domain/catalog.ts';
import type { DB } from '../index.ts';
import type { Database } from '../schema.ts';
import { taxonomies } from './data/catalog.ts';
import { cities } from './data/cities.ts';
import type { SeedAttribute, SeedCategory } from './data/types.ts';

type Tx = Transaction<Database> | Kysely<Database>;

export interface SeedReport {
  taxonomies: number;
  categories: number;
  attributes: number;
  cities: number;
  areas: number;
}

export async function isDatabaseEmpty(db: DB): Promise<boolean> {
  const row = await db.selectFrom('taxonomies').select('id').limit(1).executeTakeFirst();
  return !row;
}

export async function seedCatalogue(db: DB): Promise<SeedReport> {
  return db.transaction().execute(async (tx) => {
    const report: SeedReport = { taxonomies: 0, categories: 0, attributes: 0, cities: 0, areas: 0 };
    await seedCatalog(tx, report);
    await seedCities(tx, report);
    return report;
  });
}

async function insertAttributes(
  tx: Tx,
  owner: { taxonomy_id: number } | { category_id: number },
  attributes: SeedAttribute[] | undefined,
  report: SeedReport,
) {
  const taxonomyId = 'taxonomy_id' in owner ? owner.taxonomy_id : null;
  const categoryId = 'category_id' in owner ? owner.category_id : null;
  for (const [position, a] of (attributes ?? []).entries()) {
    let existing = tx.selectFrom('attributes').select('id').where('key', '=', a.key);
    existing =
      taxonomyId !== null
        ? existing.where('taxonomy_id', '=', taxonomyId)
        : existing.where('category_id', '=', categoryId);
    const exists = await existing.executeTakeFirst();
    if (exists) continue;
    await tx
      .insertInto('attributes')
      .values({
        taxonomy_id: taxonomyId,
        category_id: categoryId,
        key: a.key,
        name_ar: a.name_ar,
        name_en: a.name_en,
        type: a.type,
        options: a.options ? JSON.stringify(a.options) : null,
        unit_ar: a.unit_ar ?? null,
        unit_en: a.unit_en ?? null,
        required: a.required ?? false,
        filterable: a.filterable ?? false,
        shown_on_card: a.shown_on_card ?? false,
        min: a.min ?? null,
        max: a.max ?? null,
        position,
      })
      .execute();
    report.attributes++;
  }
}

async function seedCatalog(tx: Tx, report: SeedReport) {
  for (const [position, t] of taxonomies.entries()) {
    let row = await tx.selectFrom('taxonomies').select('id').where('slug', '=', t.slug).executeTakeFirst();
    if (!row) {
      // Through the catalogue's own rule: a seed file cannot give a taxonomy a reserved slug either.
      row = {
        id: await createTaxonomy(tx, { slug: t.slug, name_ar: t.name_ar, name_en: t.name_en, icon: t.icon, position }),
      };
      report.taxonomies++;
    }
    const taxonomyId = row.id;
    await insertAttributes(tx, { taxonomy_id: taxonomyId }, t.attributes, report);
    const walk = async (list: SeedCategory[], parentId: number | null, depth: number) => {
      for (const [pos, c] of list.entries()) {
        let cat = await tx.selectFrom('categories').select('id').where('slug', '=', c.slug).executeTakeFirst();
        if (!cat) {
          cat = await tx
            .insertInto('categories')
            .values({
              taxonomy_id: taxonomyId,
              parent_id: parentId,
              slug: c.slug,
              name_ar: c.name_ar,
              name_en: c.name_en,
              icon: c.icon ?? null,
              position: pos,
              depth,
            })
            .returning('id')
            .executeTakeFirstOrThrow();
          report.categories++;
        }
        await insertAttributes(tx, { category_id: cat.id }, c.attributes, report);
        if (c.children) await walk(c.children, cat.id, depth + 1);
      }
    };
    await walk(t.categories, null, 0);
  }
}

async function seedCities(tx: Tx, report: SeedReport) {
  for (const [position, c] of cities.entries()) {
    let row = await tx.selectFrom('cities').select('id').where('slug', '=', c.slug).executeTakeFirst();
    if (!row) {
      row = await tx
        .insertInto('cities')
        .values({ slug: c.slug, name_ar: c.name_ar, name_en: c.name_en, lat: c.lat, lng: c.lng, position })
        .returning('id')
        .executeTakeFirstOrThrow();
      report.cities++;
    }
    for (const [pos, a] of (c.areas ?? []).entries()) {
      const exists = await tx.selectFrom('areas').select('id').where('slug', '=', a.slug).executeTakeFirst();
      if (exists) continue;
      await tx
        .insertInto('areas')
        .values({
          city_id: row.id,
          slug: a.slug,
          name_ar: a.name_ar,
          name_en: a.name_en,
          lat: a.lat,
          lng: a.lng,
          position: pos,
        })
        .execute();
      report.areas++;
    }
  }
}
