import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { SessionProvider } from '../features/auth/api/session';
import { ApiError } from '../lib/api';
import { createRouter } from './router';
import { theme } from './theme';

/** A 4xx will not change on retry; a network error or a 5xx may (twice, then the screen shows it). */
const retry = (count: number, error: unknown) =>
  !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2;

export function App() {
  const [queryClient] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry, staleTime: 10_000 }, mutations: { retry: false } },
      }),
  );
  const [router] = useState(createRouter);
  return (
    // No <style> elements from Mantine: the CSP allows style sheets from /admin only, so the theme's
    // CSS variables come from @mantine/core/styles.css and src/app/app.css (see app.css).
    <MantineProvider
      theme={theme}
      withCssVariables={false}
      withGlobalClasses={false}
      forceColorScheme="light"
    >
      <Notifications position="top-right" />
      <QueryClientProvider client={queryClient}>
        <SessionProvider>
          <RouterProvider router={router} />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  );
}
