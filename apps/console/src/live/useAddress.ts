/**
 * A place in words: the address the server stored with the fix or event (Traccar's `address`),
 * when it has one.
 */
export function useAddress(where: object | null | undefined): string | null {
  const address = (where as { address?: unknown } | null | undefined)?.address;
  return typeof address === 'string' && address ? address : null;
}
