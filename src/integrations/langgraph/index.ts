export { routeStop, STOP_ROUTES } from './route-stop.js';
export type { StopRoute, StopSignal, StopState } from './route-stop.js';
export { StopStateAnnotation } from './stop-state-annotation.js';
