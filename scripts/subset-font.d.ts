// The types of the `subset-font` package (it ships none), as far as scripts/subset-fonts.ts and
// tests/unit/fonts.test.ts use it.
declare module 'subset-font' {
  interface AxisRange {
    min?: number;
    max?: number;
    default?: number;
  }
  interface Options {
    targetFormat?: 'sfnt' | 'woff' | 'woff2';
    variationAxes?: Record<string, number | AxisRange>;
    keepAllGlyphs?: boolean;
    keepFeatures?: string[];
    preserveNameIds?: number[];
    noLayoutClosure?: boolean;
  }
  export default function subsetFont(font: Uint8Array, text: string | undefined, options?: Options): Promise<Buffer>;
}
