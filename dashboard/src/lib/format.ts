/** A timestamp in the editor's own locale and time zone. */
export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A timestamp to the second, where two versions a minute apart must read differently (history). */
export const formatTimeExact = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A byte count as people read it: 512 B, 48.2 KB, 3.1 MB. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  const shown = value < 10 ? value.toFixed(1).replace(/\.0$/, '') : String(Math.round(value));
  return `${shown} ${units[unit]}`;
}

/** A timestamp or a dash, for columns such as "last used" or "next attempt". */
export const formatMaybe = (iso: string | null | undefined, none = '—'): string =>
  iso ? formatTime(iso) : none;

/** A message with byte counts written as people read them: "limit of 10485760 bytes" → "limit of 10 MB". */
export const humanBytes = (message: string): string =>
  message.replace(/\b(\d{4,}) bytes\b/g, (_, n: string) => formatBytes(Number(n)));
