/**
 * HTTP Basic, rule by rule: only the exact configured user name and password
 * are accepted, each compared whole (never a prefix, a suffix, extra
 * characters, another case, empty); and the `Authorization` value is parsed
 * strictly (the scheme, base64, the first colon separates). Each case is one
 * test against the verifier the configuration builds, or the parser.
 */
import { describe, expect, it } from 'vitest';
import { AuthError } from '../../src/core/auth-error.js';
import { extractCredentials } from '../../src/auth/credentials.js';
import type { Credentials, Verifier } from '../../src/auth/types.js';
import { basicOf, bearerOf, builtVerifier, swapCase, verdictOf, type Verdict } from './verdicts.js';

const USER = 'ops';
const PASSWORD = 'pa:ss:w0rd-Long-enough';
const REFUSED: Verdict = 'refused:other';

const cases: Array<[rule: string, credentials: Credentials, expected: Verdict]> = [
  ['the configured user and password', basicOf(USER, PASSWORD), `accepted:${USER}`],
  ['a wrong password', basicOf(USER, 'not-the-password'), REFUSED],
  ['a wrong password of the same length', basicOf(USER, `${PASSWORD.slice(0, -1)}X`), REFUSED],
  ['a prefix of the password (up to its first colon)', basicOf(USER, PASSWORD.split(':')[0] as string), REFUSED],
  ['a prefix of the password (without its last character)', basicOf(USER, PASSWORD.slice(0, -1)), REFUSED],
  ['a suffix of the password (without its first character)', basicOf(USER, PASSWORD.slice(1)), REFUSED],
  ['the password with a character appended', basicOf(USER, `${PASSWORD}!`), REFUSED],
  ['the password with a character prepended', basicOf(USER, `!${PASSWORD}`), REFUSED],
  ['the password with a trailing space', basicOf(USER, `${PASSWORD} `), REFUSED],
  ['the password in another case', basicOf(USER, swapCase(PASSWORD)), REFUSED],
  ['an empty password', basicOf(USER, ''), REFUSED],
  ['a wrong user with the right password', basicOf('opz', PASSWORD), REFUSED],
  ['the user name in another case', basicOf(USER.toUpperCase(), PASSWORD), REFUSED],
  ['a prefix of the user name', basicOf(USER.slice(0, -1), PASSWORD), REFUSED],
  ['the user name with a character appended', basicOf(`${USER}s`, PASSWORD), REFUSED],
  ['an empty user name', basicOf('', PASSWORD), REFUSED],
  ['user and password swapped', basicOf(PASSWORD, USER), REFUSED],
  ['the colon moved (user "ops:pa", password "ss:w0rd…")', basicOf(`${USER}:${PASSWORD.split(':')[0]}`, PASSWORD.split(':').slice(1).join(':')), REFUSED],
  ['the password as a bearer token (another scheme)', bearerOf(PASSWORD), 'not-mine'],
];

describe('Basic: each rule', () => {
  let verifier: Verifier;
  const verify = async () => (verifier ??= await builtVerifier({ basic: { username: USER, password: PASSWORD, scopes: ['s1'], groups: ['g1'] } }, 'basic'));

  it.each(cases)('%s', async (_rule, credentials, expected) => {
    expect(await verdictOf(await verify(), credentials)).toBe(expected);
  });

  it('an accepted login carries the configured scopes and groups', async () => {
    expect(await (await verify()).verify(basicOf(USER, PASSWORD))).toEqual({ subject: USER, scopes: ['s1'], groups: ['g1'], claims: { auth: 'basic' } });
  });
});

describe('Basic: parsing the Authorization header, each rule', () => {
  const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const parse = (authorization: string) => {
    try {
      return extractCredentials({ headers: { authorization } }, false);
    } catch (err) {
      return err instanceof AuthError ? `refused:${err.kind}` : err;
    }
  };
  const parseCases: Array<[rule: string, header: string, expected: unknown]> = [
    ['user and password', `Basic ${b64('ops:pw')}`, { scheme: 'basic', username: 'ops', password: 'pw' }],
    ['the scheme in any case', `bAsIc ${b64('ops:pw')}`, { scheme: 'basic', username: 'ops', password: 'pw' }],
    ['only the first colon separates', `Basic ${b64('ops:a:b:')}`, { scheme: 'basic', username: 'ops', password: 'a:b:' }],
    ['an empty password is parsed (and refused by the verifier)', `Basic ${b64('ops:')}`, { scheme: 'basic', username: 'ops', password: '' }],
    ['no colon', `Basic ${b64('opspw')}`, 'refused:invalid_credentials'],
    ['not base64', 'Basic ops:pw', 'refused:invalid_credentials'],
    ['base64 with characters after the padding', `Basic ${b64('ops:p')}x`, 'refused:invalid_credentials'],
    ['the scheme without a value', 'Basic', 'refused:invalid_credentials'],
    ['another scheme', `Digest ${b64('ops:pw')}`, 'refused:invalid_request'],
    ['a scheme that starts like Basic', `Basically ${b64('ops:pw')}`, 'refused:invalid_request'],
  ];
  it.each(parseCases)('%s', (_rule, header, expected) => {
    expect(parse(header)).toEqual(expected);
  });
});
