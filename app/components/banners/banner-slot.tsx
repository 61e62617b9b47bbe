// The one banner of a place, as the module the pages load after hydration (./lazy-banner.tsx).
import { BannerSlot } from './banner.tsx';

export default BannerSlot;
