import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { ErrorBoundary } from '@/components/error-boundary.tsx';
import { Toaster } from '@/components/toaster.tsx';
import { createQueryClient } from '@/lib/api.ts';
import { appRoutes } from './routes.tsx';
import './styles.css';

const queryClient = createQueryClient();
const router = createBrowserRouter(appRoutes);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ErrorBoundary level="critical">
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toaster />
      </QueryClientProvider>
    </ErrorBoundary>
  </StrictMode>,
);
