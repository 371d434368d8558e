/** Scheduling a page's publish or unpublish, and the page's pending schedules. */
export { ScheduleButton } from './components/ScheduleButton';
export { ScheduledList } from './components/ScheduledList';
export { fromLocalInput, timeZoneLabel, toLocalInput } from './lib/local-time';
