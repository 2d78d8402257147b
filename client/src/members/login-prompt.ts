// The login prompt (spec 000 §4): a modal native `<dialog>` that signs in through
// `POST /api/site-users/account/session` with `{email, password, rememberMe}`. The data
// layer sends the crumb and repeats once on `crumbFail`; the answer's `xsrfToken` is the
// new crumb, which the server also sets as the crumb cookie the data layer reads. On
// success the page goes to the return path; on a refusal the reason is announced and
// the address field is marked invalid. There is no account creation here.
import { DataError, dataRequest } from '../data/index';
import { openDialog, closeDialog } from './dialog';
import { returnPathOf } from './return-path';

/** The sign-in call. */
export const SESSION_URL = '/api/site-users/account/session';
/** Shown when the server gives no reason. */
export const LOGIN_FAILED = 'Your email address or password is incorrect.';
/** The button text while signing in. */
export const SIGNING_IN = 'Logging in…';

/** What the prompt needs from outside (replaced in tests). */
export interface LoginDeps {
  request: typeof dataRequest;
  navigate: (path: string) => void;
}

const defaultDeps = (win: Window): LoginDeps => ({
  request: dataRequest,
  navigate: (path) => win.location.assign(path),
});

/** The prompt's markup; ids are unique per page because only one prompt exists. */
function build(doc: Document): HTMLDialogElement {
  const dialog = doc.createElement('dialog');
  dialog.className = 'login-prompt';
  dialog.setAttribute('aria-labelledby', 'login-prompt-title');
  dialog.innerHTML = `
    <h2 id="login-prompt-title">Log in</h2>
    <p id="login-prompt-error" class="form-errors" role="alert" hidden></p>
    <form method="post" action="/account/login">
      <p><label for="login-prompt-email">Email</label><br>
        <input id="login-prompt-email" name="email" type="email" autocomplete="username" required autofocus></p>
      <p><label for="login-prompt-password">Password</label><br>
        <input id="login-prompt-password" name="password" type="password" autocomplete="current-password" required></p>
      <p><label><input name="rememberMe" type="checkbox" value="true"> Remember me</label></p>
      <p><button type="submit">Log in</button> <button type="button" data-close>Cancel</button></p>
    </form>`;
  return dialog;
}

/** The reason a sign-in failed, as the visitor should read it. */
export function failureMessage(error: unknown): string {
  if (error instanceof DataError) {
    const body = error.body as { error?: unknown } | null;
    if (body && typeof body.error === 'string' && body.error) return body.error;
    if (error.status === 401) return LOGIN_FAILED;
  }
  return error instanceof Error && error.message ? error.message : LOGIN_FAILED;
}

/** Opens the prompt (or focuses the one already open); returns its dialog. */
export function openLoginPrompt(win: Window, opener: Element | null, deps: LoginDeps = defaultDeps(win)): HTMLDialogElement {
  const doc = win.document;
  const existing = doc.querySelector<HTMLDialogElement>('dialog.login-prompt');
  if (existing?.open) {
    existing.querySelector<HTMLElement>('input')?.focus();
    return existing;
  }
  existing?.remove();
  const dialog = build(doc);
  const form = dialog.querySelector('form')!;
  const email = dialog.querySelector<HTMLInputElement>('#login-prompt-email')!;
  const password = dialog.querySelector<HTMLInputElement>('#login-prompt-password')!;
  const remember = dialog.querySelector<HTMLInputElement>('input[name="rememberMe"]')!;
  const submit = dialog.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  const alert = dialog.querySelector<HTMLElement>('#login-prompt-error')!;
  const returnTo = returnPathOf(opener, win.location);
  let busy = false;

  const showError = (message: string) => {
    alert.textContent = message;
    alert.hidden = false;
    email.setAttribute('aria-invalid', 'true');
    email.setAttribute('aria-describedby', alert.id);
    email.focus();
  };

  const onSubmit = (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if (!email.value || !password.value) {
      showError('Please enter your email address and password.');
      return;
    }
    busy = true;
    const label = submit.textContent;
    submit.textContent = SIGNING_IN;
    submit.setAttribute('aria-disabled', 'true');
    deps
      .request({
        url: SESSION_URL,
        method: 'POST',
        asJson: true,
        data: { email: email.value, password: password.value, rememberMe: remember.checked },
      })
      .then(() => deps.navigate(returnTo))
      .catch((error: unknown) => {
        busy = false;
        submit.textContent = label;
        submit.removeAttribute('aria-disabled');
        showError(failureMessage(error));
      });
  };

  form.addEventListener('submit', onSubmit);
  dialog.querySelector('[data-close]')!.addEventListener('click', () => closeDialog(dialog));
  openDialog(dialog, opener);
  return dialog;
}
