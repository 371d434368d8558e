import { unavailable } from './errors.js';

/**
 * At most `running` jobs at once, at most `waiting` more queued; past that a job is refused with
 * `503 unavailable` and Retry-After instead of piling up. For CPU- and memory-heavy work a public
 * URL can start (image variants): the queue bounds the memory, the refusal bounds the latency.
 */
export function createJobLimit(options: { running: number; waiting: number; retryAfterSeconds: number }) {
  let active = 0;
  const queue: (() => void)[] = [];

  // A finished job hands its slot straight to the first waiter, so a newcomer cannot slip in between.
  const next = () => {
    const waiter = queue.shift();
    if (waiter) waiter();
    else active -= 1;
  };

  return {
    async run<T>(job: () => Promise<T>): Promise<T> {
      if (active >= options.running) {
        if (queue.length >= options.waiting) {
          throw unavailable(options.retryAfterSeconds, 'Too many images are being processed. Try again.');
        }
        await new Promise<void>((resolve) => queue.push(resolve));
      } else active += 1;
      try {
        return await job();
      } finally {
        next();
      }
    },
    /** For tests and logs: jobs running and queued. */
    get load() {
      return { running: active, waiting: queue.length };
    },
  };
}
