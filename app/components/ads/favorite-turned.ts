// The window event a heart's turn is told with (./favorite-button.tsx listens, ./favorite-toggle.ts
// tells): every heart of the same ad on the page shows the same state.
export const FAVORITE_TURNED = 'souq:favorite';

export interface FavoriteTurned {
  ad: number;
  on: boolean;
}
