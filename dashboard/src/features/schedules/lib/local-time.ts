/**
 * Date and time in the editor's own time zone, for `<input type="datetime-local">`, whose value is a
 * wall-clock time without a zone ("2026-12-01T09:00"). The browser reads such a string as local time,
 * so `new Date(value)` is the instant the editor means, and toISOString() sends it in UTC.
 */

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as the input's value, in local time, to the minute. The year in four digits: a year
 * typed digit by digit passes through 0002, and "2-06-01T09:30" is no value to the input, which then
 * emptied itself (issue 44).
 */
export const toLocalInput = (date: Date): string =>
  `${String(date.getFullYear()).padStart(4, '0')}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;

/** The instant an input value means in local time, or null when it is not a date and time. */
export function fromLocalInput(value: string): Date | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Europe/Paris (UTC+01:00)": the zone the editor's times are read in. */
export function timeZoneLabel(at = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const offset =
    new Intl.DateTimeFormat('en', { timeZone: zone, timeZoneName: 'longOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')
      ?.value.replace('GMT', 'UTC') ?? '';
  return `${zone} (${offset === 'UTC' ? 'UTC+00:00' : offset})`;
}

/** Tomorrow at 09:00, local time: a sensible first suggestion. */
export function tomorrowMorning(now = new Date()): Date {
  const d = new Date(now);
  d.setDate(d.getDate() + 1);
  d.setHours(9, 0, 0, 0);
  return d;
}

/** The latest time the API accepts: the same date and time next year. */
export function oneYearFrom(now = new Date()): Date {
  const d = new Date(now);
  d.setFullYear(d.getFullYear() + 1);
  return d;
}
