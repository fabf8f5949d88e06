import { describe, expect, it } from 'vitest';
import { useRef } from 'react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Link, MemoryRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
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
        <Link to="/tabs/one">Oversight</Link>
      </nav>
      <output data-testid="where">{location.pathname}</output>
      <main ref={main}>
        <Routes>
          <Route path="/map" element={<h1>Live map</h1>} />
          <Route path="/reports" element={<Late />} />
          <Route path="/tabs/:tab" element={<TabScreen />} />
        </Routes>
      </main>
    </>
  );
}

/** A screen whose heading comes once its data has loaded. */
function Late() {
  return <h1>Reports</h1>;
}

/** A screen whose tabs change the address (as the oversight's do): the screen stays, and so does its tab. */
function TabScreen() {
  const navigate = useNavigate();
  return (
    <>
      <h1>Oversight</h1>
      <div role="tablist">
        {['one', 'two'].map((k) => (
          <button key={k} type="button" role="tab" onClick={() => void navigate(`/tabs/${k}`, { replace: true })}>
            {k}
          </button>
        ))}
      </div>
    </>
  );
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

  it('leaves the focus on a control of the screen that changed the address and is still there (a tab)', async () => {
    render(
      <MemoryRouter initialEntries={['/map']}>
        <Frame />
      </MemoryRouter>,
    );
    await waitFor(() => expect(document.title).toBe('Live map · Corridor'));
    fireEvent.click(screen.getByRole('link', { name: 'Reports' }));
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Reports' })));
    // to a screen with tabs, then a tab focused and chosen: the focus stays on it
    fireEvent.click(screen.getByRole('link', { name: 'Oversight' }));
    const heading = await screen.findByRole('heading', { name: 'Oversight' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const second = screen.getByRole('tab', { name: 'two' });
    second.focus();
    fireEvent.click(second);
    await waitFor(() => expect(screen.getByTestId('where').textContent).toBe('/tabs/two'));
    expect(document.activeElement).toBe(second);
  });
});
