import { createContext } from 'react';
import type { User } from '@corridor/contracts/users';

/**
 * The user the session gate rendered its screens for. Screens read the user from here, not from the
 * session query: after sign-out the query empties before the gate re-renders, and a screen that read
 * the query itself would find no user mid-render (React error #520 in the browser test).
 */
export const UserContext = createContext<User | null>(null);
