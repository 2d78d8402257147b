// The social-sharing block's widget (no React): the follow button of its account.
import { analyticsCookiesAllowed } from '../../loader/telemetry/cookies';
import { startFollow } from './follow';

/** Mounts the follow button of the social-sharing block `el`, when it names an account. */
export function mount(el: HTMLElement, data: unknown): void {
  const username = (data as { followUsername?: unknown } | null)?.followUsername;
  const follow = el.querySelector<HTMLElement>('.social-follow');
  if (typeof username !== 'string' || !follow) return;
  if (!analyticsCookiesAllowed(document, window.Veranda?.context ?? null)) return;
  void startFollow(window, follow, username);
}
