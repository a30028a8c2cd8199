import type { ReactElement, ReactNode } from 'react';
import { Route, Routes, useLocation } from 'react-router';
import { renderWithProviders } from '@/test/render.tsx';

function CurrentPath() {
  return <output data-testid="current-path">{useLocation().pathname}</output>;
}

/**
 * Renders `element` at `path` with the app's providers (web/test/render.tsx), with `children` as
 * nested routes; shows the current path in a `current-path` test id. With a specific `routePattern`
 * and no children, /admin/dashboard is a stub screen (where a login lands).
 */
export function renderAt(element: ReactElement, path: string, routePattern = '*', children?: ReactNode) {
  return renderWithProviders(
    <>
      <Routes>
        <Route path={routePattern} element={element}>
          {children}
        </Route>
        {routePattern !== '*' && !children && (
          <Route path="/admin/dashboard" element={<p>Dashboard stub</p>} />
        )}
      </Routes>
      <CurrentPath />
    </>,
    path,
  );
}
