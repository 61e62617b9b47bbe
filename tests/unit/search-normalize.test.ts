import { describe, expect, it } from 'vitest';
import { normalizeText, searchTerms } from '../../server/domain/search/normalize.ts';

describe('Arabic-aware normalisation', () => {
  it.each([
    ['أحمد', 'احمد'],
    ['إبراهيم', 'ابراهيم'],
    ['آمنة', 'امنه'],
    ['ٱلسيارة', 'السياره'],
    ['سيارة', 'سياره'],
    ['مستشفى', 'مستشفي'],
    ['٢٠١٥', '2015'],
    ['۲۰۱۵', '2015'],
    ['تُويُوتَا', 'تويوتا'],
    ['كـــبـــيـــر', 'كبير'],
    ['TOYOTA Corolla', 'toyota corolla'],
    ['ﻻند كروزر', 'لاند كروزر'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });

  it('matches the spellings people mix up, both ways', () => {
    const same = (a: string, b: string) => expect(normalizeText(a)).toBe(normalizeText(b));
    same('أحمد', 'احمد');
    same('سيارة', 'سياره');
    same('مستشفى', 'مستشفي');
    same('موديل ٢٠١٥', 'موديل 2015');
    same('تُويُوتَا كَامْرِي', 'تويوتا كامري');
  });

  it('splits words on anything that is not a letter or digit', () => {
    expect(searchTerms('  Toyota-Corolla, 2015!  (نظيفة جداً) ')).toEqual(['toyota', 'corolla', '2015', 'نظيفه', 'جدا']);
    expect(searchTerms('…  ،؛')).toEqual([]);
  });
});
