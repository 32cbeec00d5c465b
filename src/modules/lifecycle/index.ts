/**
 * The lifecycle module's outside face: THE state machine of tasks as data — states and their
 * categories, the transition table with its roles, claim rules, action rules, and the gateway verbs
 * per role — plus the pure functions that answer questions about them. No I/O.
 */
export {
  ACTION_RULES,
  type ActionRule,
  type AssigneeEffect,
  isLifecycleAction,
  LIFECYCLE_ACTIONS,
  type LifecycleAction,
} from './actions.js';
export { actionsAvailable, chainFrom, decideTransition, mayPerform, pickAction } from './authorize.js';
export {
  ALL_CLAIMABLE_STATUSES,
  CLAIM_RULES,
  CLAIM_STATUS_WRITES,
  claimableStatuses,
  claimersOf,
  claimTarget,
  decideClaim,
  isReviewClaim,
  REVIEW_CLAIM_STATES,
} from './claim-rules.js';
export type { Allowed, Decision, RefusalFlavor, Refused } from './decision.js';
export {
  BOARD_ROLES,
  CELL_TEAMS,
  type CellTeam,
  CLAIM_TAKEOVER_ROLES,
  isCellTeam,
  isSingleActiveRole,
  isTeamExempt,
  mayTakeOverClaim,
  PM_ROLES,
  type Role,
  SINGLE_ACTIVE_BUSY_STATES,
  SINGLE_ACTIVE_TASK_ROLES,
  TEAM_EXEMPT_ROLES,
  teamMatches,
} from './roles.js';
export {
  ACTIVE_STATES,
  CLAIM_HOLDING_STATES,
  FORCE_REQUIRED_TARGETS,
  holdsClaim,
  isTaskStatus,
  isTerminal,
  NON_TERMINAL_STATES,
  overrideNeedsForce,
  REVIEW_STATES,
  STATE_CATEGORIES,
  type StateCategory,
  stateCategory,
  TASK_STATUSES,
  type TaskStatus,
  TERMINAL_STATES,
  WAITING_STATES,
} from './states.js';
export {
  type EdgeOrigin,
  ESCALATION_SOURCES,
  edgesOf,
  rolesOf,
  TRANSITIONS,
  type TransitionEdge,
} from './transitions.js';
export {
  findVerb,
  GATEWAY_ROUTE_ROLES,
  GATEWAY_ROUTES,
  type GatewayRoute,
  gatewayRouteOf,
  VERBS,
  type VerbSpec,
  validVerbs,
  verbEntryAction,
  verbNeedsTask,
  verbStates,
} from './verbs.js';
export {
  AGENT_TURN_STATES,
  BUILDING_STATES,
  IN_WORK_STATES,
  LIVE_STATES,
  RELEASABLE_STATES,
} from './work-states.js';
