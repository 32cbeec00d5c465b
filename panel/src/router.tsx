/**
 * The panel's URLs. One file per page in routes/; every page renders inside the shell (Layout).
 * Filters and tabs belong in the query string so a URL can be shared.
 */
import { createBrowserRouter } from 'react-router';
import { Layout } from './components/shell/layout';
import AgentDetailPage from './routes/agent-detail';
import AgentsPage from './routes/agents';
import InboxPage from './routes/inbox';
import NotFoundPage from './routes/not-found';
import NotificationsPage from './routes/notifications';
import ProjectDetailPage from './routes/project-detail';
import ProjectsPage from './routes/projects';
import SettingsPage from './routes/settings';
import TaskDetailPage from './routes/task-detail';
import TasksPage from './routes/tasks';
import UsagePage from './routes/usage';

export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: '/', element: <InboxPage /> },
      { path: '/tasks', element: <TasksPage /> },
      { path: '/tasks/:id', element: <TaskDetailPage /> },
      { path: '/agents', element: <AgentsPage /> },
      { path: '/agents/:id', element: <AgentDetailPage /> },
      { path: '/projects', element: <ProjectsPage /> },
      { path: '/projects/:slug', element: <ProjectDetailPage /> },
      { path: '/usage', element: <UsagePage /> },
      { path: '/notifications', element: <NotificationsPage /> },
      { path: '/settings', element: <SettingsPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
