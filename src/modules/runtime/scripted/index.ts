/**
 * The `scripted` runtime's outside face: built-in simulated agents driving the real gateway.
 */

export { SCRIPTED_PREFIX } from './gateway-client.js';
export { FAIL_MARKER } from './role-scripts.js';
export { MAX_CALLS, ScriptedRuntime, type ScriptedRuntimeOptions } from './scripted-runtime.js';
