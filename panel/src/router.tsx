/**
 * The panel's URLs. One file per page in routes/ (default export = the page); every page renders
 * inside the shell (Layout). The inbox is in the first load; every other page is loaded when first
 * visited (`page(...)`), so the first load stays small as pages are added. Filters and tabs belong
 * in the query string so a URL can be shared.
 */
import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { Layout } from './components/shell/layout';
import InboxPage from './routes/inbox';

/** A page module loaded on first visit. */
const page = (load: () => Promise<{ default: ComponentType }>) => async () => ({
  Component: (await load()).default,
});

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <InboxPage /> },
      { path: '/tasks', lazy: page(() => import('./routes/tasks')) },
      { path: '/tasks/:id', lazy: page(() => import('./routes/task-detail')) },
      { path: '/tasks/:id/changes', lazy: page(() => import('./routes/task-detail')) },
      { path: '/agents', lazy: page(() => import('./routes/agents')) },
      { path: '/agents/:id', lazy: page(() => import('./routes/agent-detail')) },
      { path: '/projects', lazy: page(() => import('./routes/projects')) },
      { path: '/projects/:slug', lazy: page(() => import('./routes/project-detail')) },
      { path: '/usage', lazy: page(() => import('./routes/usage')) },
      { path: '/workforce', lazy: page(() => import('./routes/workforce')) },
      { path: '/notifications', lazy: page(() => import('./routes/notifications')) },
      { path: '/social', lazy: page(() => import('./routes/social')) },
      { path: '/intake', lazy: page(() => import('./routes/intake')) },
      { path: '/secretary', lazy: page(() => import('./routes/secretary')) },
      { path: '/settings', lazy: page(() => import('./routes/settings')) },
      { path: '*', lazy: page(() => import('./routes/not-found')) },
    ],
  },
]);
