/** Task page (not built yet on this branch). */
import { NotBuiltYet } from '../components/ui/not-built';

export default function TaskDetailPage() {
  return <NotBuiltYet title="Task" />;
}
