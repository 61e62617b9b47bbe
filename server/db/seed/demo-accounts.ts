// The demo accounts of DESIGN.md §4 (no imports: the process entry prints them).
export const DEMO_PASSWORD = 'password123';
export const DEMO_ACCOUNTS = [
  { email: 'admin@souq.test', name: 'مدير سوق', superAdmin: true, role: null },
  { email: 'moderator@souq.test', name: 'مشرفة المحتوى', superAdmin: false, role: 'moderator' },
  { email: 'user@souq.test', name: 'سالم بن علي', superAdmin: false, role: null },
] as const;
