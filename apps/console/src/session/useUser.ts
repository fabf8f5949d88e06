import { useContext } from 'react';
import type { User } from '@corridor/contracts/users';
import { UserContext } from './user-context';

/** The signed-in user, inside the session gate (which provides the one it rendered for). */
export function useUser(): User {
  const user = useContext(UserContext);
  if (!user) throw new Error('useUser outside the session gate');
  return user;
}
