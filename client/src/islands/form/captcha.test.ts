import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHALLENGE_URL, CaptchaError, completeCaptcha, encodeSolution, parseChallenge, sha256Hex, solve } from './captcha';

async function challengeFor(number: number, maxnumber = 2000) {
  const salt = 'a1b2c3?expires=1999999999&';
  return { algorithm: 'SHA-256' as const, challenge: await sha256Hex(`${salt}${number}`), maxnumber, salt, signature: 'sig' };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the captcha solver', () => {
  it('hash like the server: hex SHA-256', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('find the secret number of a challenge', async () => {
    const challenge = await challengeFor(1234);
    expect(await solve(challenge)).toBe(1234);
  });

  it('fail when no number up to maxnumber fits', async () => {
    const challenge = await challengeFor(900, 100);
    await expect(solve(challenge)).rejects.toBeInstanceOf(CaptchaError);
  });

  it('encode the solution as base64 JSON', async () => {
    const challenge = await challengeFor(7);
    const key = encodeSolution(challenge, 7);
    expect(JSON.parse(atob(key))).toEqual({
      algorithm: 'SHA-256',
      challenge: challenge.challenge,
      number: 7,
      salt: challenge.salt,
      signature: 'sig',
    });
  });

  it('refuse a challenge it cannot read', () => {
    expect(() => parseChallenge({ algorithm: 'SHA-1', challenge: 'x' })).toThrow(CaptchaError);
    expect(() => parseChallenge(null)).toThrow(CaptchaError);
  });

  it('fetch a challenge from the server and answer it', async () => {
    const challenge = await challengeFor(42);
    const fetchMock = vi.fn(async (_url: string) => new Response(JSON.stringify(challenge), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const key = await completeCaptcha();
    expect(new URL(fetchMock.mock.calls[0]![0]).pathname).toBe(CHALLENGE_URL);
    expect(JSON.parse(atob(key)).number).toBe(42);
  });
});
