// The reCAPTCHA control: the provider's widget, rendered with the site key into its box. Its
// token is the submission's `captchaKey`; an expired or failed widget clears it, and a new
// `round` (after a failed submission) resets the widget. Render errors are logged (spec 000
// §8) and tell the visitor the check could not be shown.
import { useEffect, useRef, useState } from 'react';
import { loadRecaptcha, type Grecaptcha } from './recaptcha';

/** Props of [`RecaptchaCheck`]. */
export interface RecaptchaCheckProps {
  siteKey: string;
  /** Where the provider's script loads from. */
  scriptUrl: string;
  /** Changes when the captcha must be completed again. */
  round: number;
  /** Called with the widget's token, `null` when it expires or is reset. */
  onChange: (key: string | null) => void;
}

/** What the visitor is told when the widget cannot be shown. */
export const RECAPTCHA_FAILED = 'The spam check could not be loaded. Please reload the page and try again.';

export function RecaptchaCheck({ siteKey, scriptUrl, round, onChange }: RecaptchaCheckProps) {
  const box = useRef<HTMLDivElement>(null);
  const widget = useRef<{ g: Grecaptcha; id: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const change = useRef(onChange);
  change.current = onChange;

  useEffect(() => {
    let live = true;
    loadRecaptcha(window, scriptUrl)
      .then((g) => {
        if (!live || !box.current || widget.current) return;
        const id = g.render(box.current, {
          sitekey: siteKey,
          callback: (token) => change.current(typeof token === 'string' && token !== '' ? token : null),
          'expired-callback': () => change.current(null),
          'error-callback': () => {
            console.error('Veranda: the reCAPTCHA widget reported an error.');
            change.current(null);
          },
        });
        widget.current = { g, id };
      })
      .catch((error: unknown) => {
        console.error('Veranda: the captcha could not be rendered.', error);
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, [siteKey, scriptUrl]);

  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const current = widget.current;
    if (!current) return;
    try {
      current.g.reset(current.id);
    } catch (error) {
      console.error('Veranda: the captcha could not be reset.', error);
    }
    change.current(null);
  }, [round]);

  return (
    <div className="captcha captcha--recaptcha">
      <div ref={box} className="captcha__widget" />
      <p className="captcha__status" role="status">
        {failed ? RECAPTCHA_FAILED : ''}
      </p>
    </div>
  );
}
