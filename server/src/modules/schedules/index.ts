/** Scheduled publishing: owns `schedules`. */
export { runDueSchedules } from './schedules.jobs.js';
export { countDue } from './schedules.repository.js';
export { schedulesRoutes } from './schedules.routes.js';
export { createSchedulesService, type SchedulesService } from './schedules.service.js';
