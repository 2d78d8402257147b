// The proof-of-work captcha (ALTCHA, classic v1 protocol): the server hands out
// `{algorithm: "SHA-256", challenge, maxnumber, salt, signature}`; the page finds the number
// n in 0..=maxnumber whose hex SHA-256 of `salt + n` equals `challenge`, and sends
// base64(JSON {algorithm, challenge, number, salt, signature}) as the submission's `captchaKey`.
import { dataRequest } from '../../data';

/** Where challenges come from. */
export const CHALLENGE_URL = '/api/form/captcha/challenge';

/** Hashes tried between yields to the page, so typing stays smooth while solving. */
const BATCH = 500;

/** A challenge as the server gives it. */
export interface Challenge {
  algorithm: 'SHA-256';
  challenge: string;
  maxnumber: number;
  salt: string;
  signature: string;
}

/** Why a challenge could not be solved. */
export class CaptchaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CaptchaError';
  }
}

/** Reads a challenge from the server's answer. */
export function parseChallenge(value: unknown): Challenge {
  const v = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const ok =
    v.algorithm === 'SHA-256' &&
    typeof v.challenge === 'string' &&
    /^[0-9a-f]{64}$/i.test(v.challenge) &&
    typeof v.maxnumber === 'number' &&
    Number.isInteger(v.maxnumber) &&
    v.maxnumber >= 0 &&
    typeof v.salt === 'string' &&
    typeof v.signature === 'string';
  if (!ok) throw new CaptchaError('The spam check sent a challenge this page cannot read.');
  return v as unknown as Challenge;
}

/** Hex SHA-256 of `text`. */
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** The number that solves `challenge`; `signal` stops the search. */
export async function solve(challenge: Challenge, signal?: AbortSignal): Promise<number> {
  const target = challenge.challenge.toLowerCase();
  for (let start = 0; start <= challenge.maxnumber; start += BATCH) {
    if (signal?.aborted) throw new CaptchaError('The spam check was stopped.');
    const end = Math.min(start + BATCH - 1, challenge.maxnumber);
    const batch: Array<Promise<string>> = [];
    for (let n = start; n <= end; n += 1) batch.push(sha256Hex(`${challenge.salt}${n}`));
    const hashes = await Promise.all(batch);
    const found = hashes.indexOf(target);
    if (found >= 0) return start + found;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new CaptchaError('The spam check could not be solved.');
}

/** The `captchaKey` for a solved challenge. */
export function encodeSolution(challenge: Challenge, number: number): string {
  const { algorithm, salt, signature } = challenge;
  return btoa(JSON.stringify({ algorithm, challenge: challenge.challenge, number, salt, signature }));
}

/** Fetches a challenge and solves it; resolves with the `captchaKey`. */
export async function completeCaptcha(signal?: AbortSignal): Promise<string> {
  const challenge = parseChallenge(await dataRequest({ url: CHALLENGE_URL }));
  const number = await solve(challenge, signal);
  return encodeSolution(challenge, number);
}
