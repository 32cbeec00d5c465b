/**
 * The gated release manager: a readiness sweep (board program `release_manager`) over the
 * service's own repository that opens at most one held release proposal for the CEO, and
 * /api/release to approve it (a fail-closed executor in the background, single-flight across
 * replicas) or reject it. It never publishes without the CEO's approve.
 */
export { type ApprovalTiming, DEFAULT_APPROVAL_TIMING, RELEASE_LOCK } from './approvals.js';
export { ReleaseManager } from './manager.js';
export { RELEASE_SOURCE } from './proposals.js';
export { registerReleaseRoutes } from './routes.js';
