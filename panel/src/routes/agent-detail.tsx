/** Agent page (not built yet on this branch). */
import { NotBuiltYet } from '../components/ui/not-built';

export default function AgentDetailPage() {
  return <NotBuiltYet title="Agent" />;
}
