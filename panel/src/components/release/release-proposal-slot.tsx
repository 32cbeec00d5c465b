/**
 * Where the release proposal card goes on the inbox (PANEL.md sketch: first card, left). Not built
 * yet: the card (version, bump, gaps, changelog, Approve & publish with the running badge, Retry,
 * Reject with changes) belongs here and reads `GET /api/release/proposal` (404 = no proposal).
 */
export function ReleaseProposalSlot() {
  return null;
}
