// The judged query set of search (docs/product/search.md, "Relevance"): what buyers type, in Arabic
// (Libyan spellings and typos included), English and mixed script, each with the ads a buyer
// expects — for a query that names a category, a brand or a model, every ad filed under it or
// carrying it. Judgements are rules over the catalogue (category slugs, attribute options, cities),
// not lists of ids, so they hold for the demo ads and for any other data. ./evaluate.ts measures
// the search service against them.

/** The ads a query should find. */
export type Judgement =
  /** Filed under this taxonomy or category, or any category below it. */
  | { category: string }
  /** Carrying this option of an attribute (by the attribute's key). */
  | { option: [key: string, value: string] }
  /** Placed in this city. */
  | { city: string }
  | { any: Judgement[] }
  | { all: Judgement[] };

export interface JudgedQuery {
  q: string;
  /** What the query tries: the script, a Libyan word or spelling, a typo. */
  kind: 'arabic' | 'english' | 'mixed' | 'libyan' | 'typo';
  expect: Judgement;
}

const cat = (category: string): Judgement => ({ category });
const any = (...parts: Judgement[]): Judgement => ({ any: parts });
const all = (...parts: Judgement[]): Judgement => ({ all: parts });
const option = (key: string, value: string): Judgement => ({ option: [key, value] });

const APARTMENTS = any(cat('apartments-for-sale'), cat('apartments-for-rent'));
const VILLAS = any(cat('villas-for-sale'), cat('villas-for-rent'));
const HOUSES = any(cat('houses-for-sale'), cat('houses-for-rent'));
/** A brand: its own category and the ads of other categories that name it as their make or brand. */
const brand = (category: string | null, value: string) =>
  any(...(category ? [cat(category)] : []), option('make', value), option('brand', value));
const TOYOTA = brand('toyota', 'toyota');
const HYUNDAI = brand('hyundai', 'hyundai');
const MERCEDES = brand('mercedes-benz', 'mercedes-benz');
const SAMSUNG = brand('samsung-phones', 'samsung');
const AIR_CONDITIONING = any(cat('air-conditioners'), cat('ac-repair'));

export const JUDGED_QUERIES: readonly JudgedQuery[] = [
  // Motors: makes in both scripts, Libyan spellings, models, the categories.
  { q: 'تويوتا', kind: 'arabic', expect: TOYOTA },
  { q: 'toyota', kind: 'english', expect: TOYOTA },
  { q: 'Toyota', kind: 'english', expect: TOYOTA },
  { q: 'تيوتا', kind: 'typo', expect: TOYOTA },
  { q: 'هيونداي', kind: 'arabic', expect: HYUNDAI },
  { q: 'هونداي', kind: 'libyan', expect: HYUNDAI },
  { q: 'hyundai', kind: 'english', expect: HYUNDAI },
  { q: 'كيا', kind: 'arabic', expect: brand('kia', 'kia') },
  { q: 'kia', kind: 'english', expect: brand('kia', 'kia') },
  { q: 'نيسان', kind: 'arabic', expect: brand('nissan', 'nissan') },
  { q: 'nissan', kind: 'english', expect: brand('nissan', 'nissan') },
  { q: 'شيفروليه', kind: 'arabic', expect: brand('chevrolet', 'chevrolet') },
  { q: 'شفروليه', kind: 'typo', expect: brand('chevrolet', 'chevrolet') },
  { q: 'مرسيدس', kind: 'arabic', expect: MERCEDES },
  { q: 'مارسيدس', kind: 'libyan', expect: MERCEDES },
  { q: 'mercedes', kind: 'english', expect: MERCEDES },
  { q: 'هوندا', kind: 'arabic', expect: brand('honda', 'honda') },
  { q: 'سيارات', kind: 'arabic', expect: cat('cars') },
  { q: 'سيارة', kind: 'arabic', expect: cat('cars') },
  { q: 'cars', kind: 'english', expect: cat('cars') },
  { q: 'توسان', kind: 'arabic', expect: option('model', 'tucson') },
  { q: 'tucson', kind: 'english', expect: option('model', 'tucson') },
  { q: 'تويوتا فورتشنر', kind: 'arabic', expect: option('model', 'fortuner') },
  { q: 'هايلكس', kind: 'arabic', expect: option('model', 'hilux') },
  { q: 'شاص', kind: 'libyan', expect: option('model', 'land-cruiser-pickup') },
  { q: 'افانتي', kind: 'libyan', expect: option('model', 'avante') },
  { q: 'دراجة نارية', kind: 'arabic', expect: cat('motorcycles') },
  { q: 'motorcycle', kind: 'english', expect: cat('motorcycles') },
  { q: 'شاحنات', kind: 'arabic', expect: cat('trucks') },
  { q: 'شاحنة', kind: 'arabic', expect: cat('trucks') },
  { q: 'قطع غيار', kind: 'arabic', expect: cat('spare-parts') },
  { q: 'قوارب', kind: 'arabic', expect: cat('boats') },
  { q: 'boat', kind: 'english', expect: cat('boats') },
  // Property: broken plurals, "for sale" and "for rent", Libyan words.
  { q: 'شقق', kind: 'arabic', expect: APARTMENTS },
  { q: 'شقة', kind: 'arabic', expect: APARTMENTS },
  { q: 'شقه', kind: 'typo', expect: APARTMENTS },
  { q: 'شقق للبيع', kind: 'arabic', expect: cat('apartments-for-sale') },
  { q: 'شقة للإيجار', kind: 'arabic', expect: cat('apartments-for-rent') },
  { q: 'شقق للايجار', kind: 'arabic', expect: cat('apartments-for-rent') },
  { q: 'apartment', kind: 'english', expect: APARTMENTS },
  { q: 'apartments for rent', kind: 'english', expect: cat('apartments-for-rent') },
  { q: 'فلل', kind: 'arabic', expect: VILLAS },
  { q: 'فيلا', kind: 'arabic', expect: VILLAS },
  { q: 'villa', kind: 'english', expect: VILLAS },
  { q: 'أراضي', kind: 'arabic', expect: cat('land-for-sale') },
  { q: 'ارض', kind: 'arabic', expect: cat('land-for-sale') },
  { q: 'land for sale', kind: 'english', expect: cat('land-for-sale') },
  { q: 'منازل', kind: 'arabic', expect: HOUSES },
  { q: 'حوش', kind: 'libyan', expect: HOUSES },
  { q: 'house for rent', kind: 'english', expect: cat('houses-for-rent') },
  { q: 'عقارات', kind: 'arabic', expect: cat('property') },
  { q: 'مزرعة', kind: 'arabic', expect: cat('farms-for-sale') },
  { q: 'شاليه', kind: 'arabic', expect: cat('chalets-for-rent') },
  { q: 'استراحة', kind: 'libyan', expect: cat('chalets-for-rent') },
  { q: 'غرفة للإيجار', kind: 'arabic', expect: cat('rooms-for-rent') },
  // Electronics: brands in both scripts and their spellings, the categories.
  { q: 'ايفون', kind: 'arabic', expect: cat('iphone') },
  { q: 'آيفون', kind: 'arabic', expect: cat('iphone') },
  { q: 'أيفون', kind: 'arabic', expect: cat('iphone') },
  { q: 'iphone', kind: 'english', expect: cat('iphone') },
  { q: 'ايفون 256 جيجا', kind: 'mixed', expect: all(cat('iphone'), option('storage', '256gb')) },
  { q: 'سامسونج', kind: 'arabic', expect: SAMSUNG },
  { q: 'samsung', kind: 'english', expect: SAMSUNG },
  { q: 'موبايل', kind: 'libyan', expect: cat('mobile-phones') },
  { q: 'هواتف', kind: 'arabic', expect: cat('mobile-phones') },
  { q: 'هاتف', kind: 'arabic', expect: cat('mobile-phones') },
  { q: 'لابتوب', kind: 'arabic', expect: cat('laptops') },
  { q: 'لاب توب', kind: 'arabic', expect: cat('laptops') },
  { q: 'laptop', kind: 'english', expect: cat('laptops') },
  { q: 'لابتوبات', kind: 'arabic', expect: cat('laptops') },
  { q: 'كمبيوتر', kind: 'arabic', expect: cat('computers') },
  { q: 'اوبو', kind: 'arabic', expect: cat('oppo-phones') },
  { q: 'oppo', kind: 'english', expect: cat('oppo-phones') },
  {
    q: 'بلايستيشن',
    kind: 'arabic',
    expect: any(option('platform', 'playstation-5'), option('platform', 'playstation-4')),
  },
  // Home, fashion, jobs, services, hobbies.
  { q: 'ثلاجة', kind: 'arabic', expect: cat('refrigerators') },
  { q: 'ثلاجات', kind: 'arabic', expect: cat('refrigerators') },
  { q: 'غسالة', kind: 'arabic', expect: cat('washing-machines') },
  { q: 'washing machine', kind: 'english', expect: cat('washing-machines') },
  { q: 'مكيف', kind: 'arabic', expect: AIR_CONDITIONING },
  { q: 'مكيفات', kind: 'arabic', expect: AIR_CONDITIONING },
  { q: 'اثاث', kind: 'arabic', expect: cat('furniture') },
  { q: 'غرفة نوم', kind: 'arabic', expect: cat('bedroom') },
  { q: 'طباخة', kind: 'libyan', expect: cat('cookers-ovens') },
  { q: 'طاقة شمسية', kind: 'arabic', expect: cat('generators-solar') },
  { q: 'عطور', kind: 'arabic', expect: cat('perfumes') },
  { q: 'عطر', kind: 'arabic', expect: cat('perfumes') },
  { q: 'perfume', kind: 'english', expect: cat('perfumes') },
  { q: 'ساعات', kind: 'arabic', expect: cat('watches') },
  { q: 'ذهب', kind: 'arabic', expect: cat('jewellery') },
  { q: 'وظائف', kind: 'arabic', expect: cat('jobs') },
  { q: 'وظيفة', kind: 'arabic', expect: cat('jobs') },
  { q: 'jobs', kind: 'english', expect: cat('jobs') },
  { q: 'وظيفة سائق', kind: 'arabic', expect: cat('driver-jobs') },
  { q: 'سباكة', kind: 'arabic', expect: cat('plumbing') },
  { q: 'سباك', kind: 'arabic', expect: cat('plumbing') },
  { q: 'قطط', kind: 'arabic', expect: cat('cats') },
  { q: 'قطة', kind: 'arabic', expect: cat('cats') },
  { q: 'cats', kind: 'english', expect: cat('cats') },
  { q: 'مواشي', kind: 'arabic', expect: cat('livestock') },
  { q: 'كتب', kind: 'arabic', expect: cat('books') },
  { q: 'دراجة هوائية', kind: 'arabic', expect: cat('bicycles') },
  // A place with what is wanted there, and mixed script.
  { q: 'شقق طرابلس', kind: 'arabic', expect: all(APARTMENTS, { city: 'tripoli' }) },
  { q: 'شقة بنغازي', kind: 'arabic', expect: all(APARTMENTS, { city: 'benghazi' }) },
  { q: 'apartment طرابلس', kind: 'mixed', expect: all(APARTMENTS, { city: 'tripoli' }) },
  { q: 'toyota بنغازي', kind: 'mixed', expect: all(TOYOTA, { city: 'benghazi' }) },
];
