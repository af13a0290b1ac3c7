/**
 * The LangGraph integration: `routeStop`, a conditional edge after a turn;
 * `decideStop` and `routeDecision`, a node deciding with any stop policy and
 * the edge after it, over the channels of `StopEngineAnnotation`, which a
 * checkpointer saves with the graph.
 *
 * @module
 */
export { routeStop, STOP_ROUTES } from './route-stop.js';
export type { RouteStopState, StopRoute } from './route-stop.js';
export { StopEngineAnnotation } from './stop-engine-annotation.js';
export type { StopEngineState } from './stop-engine-annotation.js';
export { decideStop } from './decide-stop.js';
export { routeDecision } from './route-decision.js';
