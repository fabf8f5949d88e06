import type { User } from '@corridor/contracts/users';
import { useSession } from './useSession';

/** The signed-in user, inside the session gate (where there always is one). */
export function useUser(): User {
  const { user } = useSession();
  if (!user) throw new Error('useUser outside the session gate');
  return user;
}
