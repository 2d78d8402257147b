// The form's captcha, by the site's provider ([`captchaProviderOf`]): the ALTCHA checkbox,
// the reCAPTCHA widget, or, for a reCAPTCHA site without a site key, the spec's
// 'ReCaptcha has not been set up!' (logged too).
import { useEffect, useMemo } from 'react';
import { readPageContext } from '../../loader/context';
import { CaptchaCheck } from './captcha-check';
import { RECAPTCHA_UNSET } from './messages';
import { captchaProviderOf } from './provider';
import { RecaptchaCheck } from './recaptcha-check';

/** Props of [`CaptchaControl`]. */
export interface CaptchaControlProps {
  /** Changes when the captcha must be completed again. */
  round: number;
  /** Called with the `captchaKey` once completed, `null` when reset. */
  onChange: (key: string | null) => void;
}

export function CaptchaControl({ round, onChange }: CaptchaControlProps) {
  const provider = useMemo(() => captchaProviderOf(readPageContext(document)), []);
  useEffect(() => {
    if (provider.kind === 'unset') console.error(`Veranda: ${RECAPTCHA_UNSET}`);
  }, [provider]);
  switch (provider.kind) {
    case 'recaptcha':
      return <RecaptchaCheck siteKey={provider.siteKey} scriptUrl={provider.scriptUrl} round={round} onChange={onChange} />;
    case 'unset':
      return (
        <p className="captcha captcha--unset" role="alert">
          {RECAPTCHA_UNSET}
        </p>
      );
    default:
      return <CaptchaCheck round={round} onChange={onChange} />;
  }
}
