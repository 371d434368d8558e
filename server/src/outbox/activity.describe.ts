import type { ActivityActor } from '../shared/principals.js';

/** The subject of a record's summary sentence: "ada@example.com published …". */
export function actorLabel(actor: ActivityActor): string {
  switch (actor.type) {
    case 'user':
      return actor.email;
    case 'apiKey':
      return `API key "${actor.name}"`;
    case 'site':
      return 'The site';
    case 'system':
      return `Scheduled work for ${actor.onBehalfOf.email}`;
  }
}
