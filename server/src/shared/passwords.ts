type Argon2 = typeof import('@node-rs/argon2');
let loading: Promise<Argon2> | undefined;
/**
 * The argon2 binding, loaded on first use: only sign-ups, sign-ins and password changes hash, and
 * loading the native module was ~20 ms of every start (issue 13), visitor-only instances included.
 */
const argon2 = (): Promise<Argon2> => (loading ??= import('@node-rs/argon2'));

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane (~25 ms here).
// `algorithm: 2` is Argon2id (an ambient const enum in the typings, so not importable under verbatimModuleSyntax).
const OPTIONS = { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * A hash of a random password with the same parameters. Logins for unknown emails verify against
 * it, so they take as long as a wrong password and do not reveal which emails have accounts.
 */
const DUMMY_HASH =
  '$argon2id$v=19$m=19456,t=2,p=1$JW5oQXCEpW3j5QmOlmvIjg$lJDriy2cB+R+T5VsJw+5Oxn+7whQjxiXcbtHtDT5M3k';

export const hashPassword = async (password: string): Promise<string> =>
  (await argon2()).hash(password, OPTIONS);

/** Verifies `password` against `stored`, or burns the same time against a dummy hash when there is none. */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  const { verify } = await argon2(); // outside the try: a missing binding is an error, not a wrong password
  try {
    const ok = await verify(stored ?? DUMMY_HASH, password);
    return stored !== null && ok;
  } catch {
    return false;
  }
}

export const normalizeEmail = (email: string): string => email.trim().toLowerCase();
