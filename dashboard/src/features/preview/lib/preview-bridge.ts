import { asSiteMessage, type DashboardMessage, envelope, renewAfter } from './bridge';

type DraftBody = Extract<DashboardMessage, { type: 'draft' }>;

/** Entry ids and locale codes hold no newline. */
const draftKey = (entryId: string, locale: string | undefined) => `${entryId}\n${locale ?? ''}`;

export interface PreviewToken {
  token: string;
  /** How long it lasts from when it was made (its ttl). */
  lifetimeMs: number;
}

export type BridgeStatus =
  | { kind: 'waiting' }
  | { kind: 'connected' }
  | { kind: 'wrong-origin'; origin: string }
  | { kind: 'failed'; message: string };

interface Options {
  pageId: string;
  /** POST /v1/preview-tokens with the editor's session. */
  createToken(): Promise<PreviewToken>;
  /** A click in the site: the entry, and where in it (`features[_key=a].title`) when the site says. */
  onSelect(entryId: string, path: string | null): void;
  onStatus(status: BridgeStatus): void;
}

interface Frame {
  window(): Window | null;
  origin: string;
}

/**
 * One page screen's bridge to the site in its preview pane. Framework-free so its rules read in one
 * place: a message counts only when it comes from the pane's own window (`event.source`; a frame nested
 * inside the site, another tab or an extension is not it) AND from the preview URL's origin (a site
 * that redirected elsewhere is not it); everything is posted with that origin as `targetOrigin`, never
 * '*', so if the frame has navigated away the browser drops the message instead of delivering a token.
 * The token is made only on a valid `hello`, so a stranger never causes one to exist.
 *
 * The forms hand it their working values (`draft`) whether or not a site is connected; it keeps the
 * latest of each entry in each locale and sends them all once the site says `ready`, so edits made
 * before the pane loaded (or restored after a reload) show too. Each draft names its locale (a form is
 * one locale's): the site shows only those of the locale it renders, so French typing never shows in
 * the English page the pane reloads to when the editor switches language.
 */
export class PreviewBridge {
  private frame: Frame | null = null;
  private token: { value: string; renewAt: number } | null = null;
  private making: Promise<string> | null = null;
  private renewal: ReturnType<typeof setTimeout> | undefined;
  private ready = false;
  /** The latest working values by entry and locale (`draftKey`). */
  private readonly drafts = new Map<string, DraftBody>();
  private highlighted: { entryId: string; path: string | null } | null = null;

  constructor(private readonly options: Options) {}

  /** Starts listening to the pane's frame; the returned function stops it (the pane closed). */
  attach(frameWindow: () => Window | null, origin: string): () => void {
    const frame: Frame = { window: frameWindow, origin };
    this.frame = frame;
    this.ready = false;
    const listener = (event: MessageEvent) => this.receive(frame, event);
    window.addEventListener('message', listener);
    this.options.onStatus({ kind: 'waiting' });
    return () => {
      window.removeEventListener('message', listener);
      clearTimeout(this.renewal);
      this.renewal = undefined;
      if (this.frame === frame) this.frame = null;
      this.ready = false;
    };
  }

  /**
   * The form's working values of one entry in `locale` (undefined: a project without locales; `dirty`
   * false: the stored values, sent only to undo a draft).
   */
  draft(entryId: string, fields: Record<string, unknown>, dirty: boolean, locale?: string): void {
    const key = draftKey(entryId, locale);
    if (!dirty && !this.drafts.has(key)) return;
    // Without locales the message is as before: no `locale` key at all.
    const body: DraftBody = { type: 'draft', entryId, fields, ...(locale === undefined ? {} : { locale }) };
    this.drafts.set(key, body);
    if (this.ready) this.post(body);
  }

  /** The entry was saved in `locale`: the site follows it through live updates from now on. */
  forget(entryId: string, locale?: string): void {
    this.drafts.delete(draftKey(entryId, locale));
  }

  /** The form the editor is in, and the item or field inside it (`path`, by `_key`), outlined in the site. */
  highlight(entryId: string | null, path: string | null = null): void {
    this.highlighted = entryId === null ? null : { entryId, path };
    if (this.ready) this.post({ type: 'highlight', entryId, path });
  }

  private receive(frame: Frame, event: MessageEvent): void {
    if (this.frame !== frame) return;
    const source = frame.window();
    if (!source || event.source !== source) return;
    const message = asSiteMessage(event.data);
    if (!message) return;
    if (event.origin !== frame.origin) {
      this.options.onStatus({ kind: 'wrong-origin', origin: event.origin });
      return;
    }
    switch (message.type) {
      case 'hello':
        // Also after a reload or a navigation inside the frame: the site starts over.
        this.ready = false;
        void this.init();
        return;
      case 'ready':
        this.ready = true;
        this.options.onStatus({ kind: 'connected' });
        for (const body of this.drafts.values()) this.post(body);
        if (this.highlighted) this.post({ type: 'highlight', ...this.highlighted });
        return;
      case 'select':
        this.options.onSelect(message.entryId, message.path ?? null);
        return;
    }
  }

  private async init(): Promise<void> {
    try {
      const token = await this.currentToken();
      this.post({ type: 'init', previewToken: token, pageId: this.options.pageId });
    } catch (err) {
      this.options.onStatus({ kind: 'failed', message: err instanceof Error ? err.message : String(err) });
    }
  }

  /** The token in hand until it is due for renewal; one request for many hellos. */
  private currentToken(): Promise<string> {
    if (this.token && Date.now() < this.token.renewAt) return Promise.resolve(this.token.value);
    this.making ??= this.options.createToken().then(
      (token) => {
        const delay = renewAfter(token.lifetimeMs);
        this.token = { value: token.token, renewAt: Date.now() + delay };
        this.making = null;
        this.scheduleRenewal(delay);
        return token.token;
      },
      (err: unknown) => {
        this.making = null;
        throw err;
      },
    );
    return this.making;
  }

  /** A new token, sent in a new `init`, before the one the site holds expires. */
  private scheduleRenewal(delay: number): void {
    clearTimeout(this.renewal);
    if (!this.frame) return;
    this.renewal = setTimeout(() => {
      this.token = null;
      void this.init();
    }, delay);
  }

  private post(message: DashboardMessage): void {
    const frame = this.frame;
    frame?.window()?.postMessage(envelope(message), frame.origin);
  }
}
