/** Who opened a task (`source`), where another module decides on it: the release manager's proposal. */
export const RELEASE_PROPOSAL_SOURCE = 'release_manager';
