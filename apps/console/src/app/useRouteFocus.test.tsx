import { describe, expect, it } from 'vitest';
import { useRef } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { useRouteFocus } from './useRouteFocus';

/** The frame of the console in miniature: a main area whose screens change with the address. */
function Frame() {
  const main = useRef<HTMLElement>(null);
  const location = useLocation();
  useRouteFocus(main, location.pathname);
  return (
    <>
      <nav>
        <Link to="/reports">Reports</Link>
      </nav>
      <main ref={main}>
        <Routes>
          <Route path="/map" element={<h1>Live map</h1>} />
          <Route path="/reports" element={<Late />} />
        </Routes>
      </main>
    </>
  );
}

/** A screen whose heading comes once its data has loaded. */
function Late() {
  return <h1>Reports</h1>;
}

describe('focus and title on navigation', () => {
  it("names the first page by its heading without moving the focus, then moves the focus to the next screen's heading", async () => {
    render(
      <MemoryRouter initialEntries={['/map']}>
        <Frame />
      </MemoryRouter>,
    );
    await waitFor(() => expect(document.title).toBe('Live map · Corridor'));
    expect(document.activeElement).toBe(document.body);
    fireEvent.click(screen.getByRole('link', { name: 'Reports' }));
    const heading = await screen.findByRole('heading', { name: 'Reports' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(document.title).toBe('Reports · Corridor');
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });
});
