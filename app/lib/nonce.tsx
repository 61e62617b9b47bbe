import { createContext, useContext } from 'react';

/** The CSP nonce of the current response (server only; the browser hides it after parsing). */
export const NonceContext = createContext<string | undefined>(undefined);
export const useNonce = () => useContext(NonceContext);
