import { setProcessFlags, trimYoungGenerationWhenIdle } from './shared/idle-memory.js';
import { pinTickObjectMaps } from './shared/tick-maps.js';

/*
 * What every Folio process does before the rest of it is loaded: server.ts and worker.ts import this
 * module first, so it runs before any other module's code, and before the garbage collection that
 * loading the rest may start (ES modules run in the order they are imported).
 */
pinTickObjectMaps();
setProcessFlags();
trimYoungGenerationWhenIdle();
