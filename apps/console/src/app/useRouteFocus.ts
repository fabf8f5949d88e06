import { useEffect, useRef, type RefObject } from 'react';

/**
 * On each navigation the page's title follows the screen's heading ("Reports · Corridor"), also
 * when the heading fills in later (a record's name once loaded), and after the first screen the
 * focus moves to that heading, so a screen reader says where the person now is and Tab goes on
 * from the top of the new screen rather than from a link that is gone. A control of the screen that
 * changes the address and stays (a tab of the oversight, a filter) keeps the focus: taking it away
 * would lose the person's place (arrow keys through tabs would stop after one).
 */
export function useRouteFocus(main: RefObject<HTMLElement | null>, pathname: string): void {
  const first = useRef(true);
  useEffect(() => {
    const root = main.current;
    if (!root) return;
    const active = document.activeElement;
    const stayed = active !== null && active !== root && root.contains(active);
    const moveFocus = !first.current && !stayed;
    first.current = false;
    let focused = false;
    const apply = () => {
      const heading = root.querySelector('h1');
      if (!heading) return;
      const text = heading.textContent?.trim();
      if (text && document.title !== `${text} · Corridor`) document.title = `${text} · Corridor`;
      if (moveFocus && !focused) {
        focused = true;
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
    };
    apply();
    const watch = new MutationObserver(apply);
    watch.observe(root, { childList: true, subtree: true, characterData: true });
    return () => watch.disconnect();
  }, [main, pathname]);
}
