import type { FolioClient, Schemas } from '@folio/client';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { createApi, sessionEnded, unwrap } from '../../../lib/api';
import { storage } from '../../../lib/storage';
import { ACCOUNT, rememberSession, renewWhileActive, sessionHeld, TOKEN } from './renewal';
import { askOpenTabs, shareWithTabs, tellTabs } from './tab-share';

/**
 * The signed-in session. The token is kept in sessionStorage (src/lib/storage.ts says why) so a reload
 * keeps the editor signed in, and a new tab of the browser takes it from an open one (./tab-share.ts);
 * it never goes into a URL. When the API rejects the session (a 401: it
 * expired or was ended elsewhere) the token is dropped and the sign-in screen comes back, but drafts
 * and the current address stay, so the editor carries on where they were after signing in again.
 * Signing out ends the session on the server and clears every cached byte: the query cache and storage.
 * While the editor is active the session is renewed before it expires (./renewal.ts).
 */

type Me = Schemas['Me'];
type Login = Schemas['LoginResult'];
export type SessionState =
  | { status: 'checking' }
  | { status: 'signedOut'; reason?: 'expired' }
  | { status: 'signedIn'; user: Me };

interface SessionValue {
  state: SessionState;
  api: FolioClient;
  signIn(email: string, password: string): Promise<void>;
  /** Signs in with a login's answer obtained elsewhere (a set-password link answers as login does). */
  adopt(login: Login): void;
  signOut(): Promise<void>;
  /** After the account changed (a project created): reload `me`. */
  refreshUser(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Checking at first even without a token of this tab's own: an open tab may share its session.
  const [state, setState] = useState<SessionState>({ status: 'checking' });

  const renewal = useRef<Promise<void> | null>(null);
  const api = useMemo(
    () =>
      createApi({
        rejected(sent) {
          // Once per session: a later 401 of the same token (calls in flight together), or of an older
          // token after signing in again, changes nothing.
          if (storage.get(TOKEN) !== sent) return;
          storage.remove(TOKEN);
          api.updateCredentials({ session: undefined });
          setState({ status: 'signedOut', reason: 'expired' });
        },
        async newerToken(sent) {
          await renewal.current;
          const current = storage.get(TOKEN);
          return current && current !== sent ? current : undefined;
        },
      }),
    [],
  );

  const signedIn = state.status === 'signedIn';
  useEffect(() => {
    if (!signedIn) return;
    return renewWhileActive(api, (r) => {
      renewal.current = r;
    });
  }, [api, signedIn]);

  // Answers new tabs with this tab's session; follows another tab's renewal or sign-out of the same one.
  useEffect(
    () =>
      shareWithTabs(sessionHeld, {
        renewed(from, session) {
          if (storage.get(TOKEN) !== from) return;
          rememberSession(session.token, session.expiresAt);
          api.updateCredentials({ session: session.token });
        },
        signedOut(token) {
          if (storage.get(TOKEN) !== token) return;
          api.setCredentials({});
          queryClient.clear();
          storage.clearAll();
          setState({ status: 'signedOut' });
        },
      }),
    [api, queryClient],
  );

  // A token kept from before a reload, or shared by an open tab of this browser (./tab-share.ts):
  // check it once (GET /v1/auth/me); a 401 shows the sign-in.
  useEffect(() => {
    let live = true;
    const shared = async () => {
      const own = storage.get(TOKEN);
      if (own) return own;
      const session = await askOpenTabs();
      if (!session || storage.get(TOKEN)) return storage.get(TOKEN);
      rememberSession(session.token, session.expiresAt);
      storage.set(ACCOUNT, session.account);
      return session.token;
    };
    const check = async (token: string | null) => {
      if (!live) return;
      if (!token) {
        setState((now) => (now.status === 'checking' ? { status: 'signedOut' } : now));
        return;
      }
      api.updateCredentials({ session: token });
      return api.GET('/v1/auth/me');
    };
    shared()
      .then(check)
      .then(
        (result) => {
          if (!result) return;
          if (!live) return;
          if (result.ok && !result.notModified) setState({ status: 'signedIn', user: result.data });
          else if (!sessionEnded(result)) setState({ status: 'signedOut' });
        },
        () => live && setState({ status: 'signedOut' }),
      );
    return () => {
      live = false;
    };
  }, [api]);

  const adopt = useCallback(
    (login: Login) => {
      // Another account in this tab: nothing of the previous one may show (cache, drafts).
      const previous = storage.get(ACCOUNT);
      if (previous && previous !== login.user.id) {
        queryClient.clear();
        storage.clearAll();
      }
      rememberSession(login.token, login.expiresAt);
      storage.set(ACCOUNT, login.user.id);
      api.updateCredentials({ session: login.token });
      setState({ status: 'signedIn', user: login.user });
    },
    [api, queryClient],
  );

  const signIn = useCallback(
    async (email: string, password: string) => {
      adopt(unwrap(await api.POST('/v1/auth/login', { body: { email, password } })));
    },
    [api, adopt],
  );

  const signOut = useCallback(async () => {
    // Best effort: the token is forgotten here whatever the server answers, and in the tabs sharing it.
    const token = storage.get(TOKEN);
    await api.POST('/v1/auth/logout').catch(() => undefined);
    if (token) tellTabs({ type: 'signedOut', token });
    api.setCredentials({});
    await queryClient.cancelQueries();
    queryClient.clear();
    storage.clearAll();
    setState({ status: 'signedOut' });
  }, [api, queryClient]);

  const refreshUser = useCallback(async () => {
    const me = unwrap(await api.GET('/v1/auth/me'));
    setState({ status: 'signedIn', user: me });
  }, [api]);

  const value = useMemo(
    () => ({ state, api, signIn, adopt, signOut, refreshUser }),
    [state, api, signIn, adopt, signOut, refreshUser],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The API client of the signed-in session. */
export const useApi = (): FolioClient => useSession().api;

/** The signed-in account (only inside the signed-in part of the app). */
export function useUser(): Me {
  const { state } = useSession();
  if (state.status !== 'signedIn') throw new Error('useUser while signed out');
  return state.user;
}
