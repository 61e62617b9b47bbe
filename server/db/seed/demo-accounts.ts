// The demo accounts of the README (no imports: the process entry prints them).
export const DEMO_PASSWORD = 'password123';
export const DEMO_ACCOUNTS = [
  // Confirmed numbers for the accounts that place ads: every seller needs one (server/domain/ads/placing.ts).
  { email: 'admin@souq.test', name: 'مدير سوق', superAdmin: true, role: null, phone: '+218910000001' },
  { email: 'moderator@souq.test', name: 'مشرفة المحتوى', superAdmin: false, role: 'moderator', phone: null },
  { email: 'user@souq.test', name: 'سالم بن علي', superAdmin: false, role: null, phone: '+218910000000' },
] as const;
