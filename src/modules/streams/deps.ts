/** What the streams module uses of the others: the roster, to admit only known agents on a socket. */
import type { AgentsModule } from '../agents/index.js';

export interface StreamsDeps {
  agents: AgentsModule;
}
