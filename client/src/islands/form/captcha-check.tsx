// The captcha control: a checkbox 'I'm not a robot' that, when checked, fetches a
// proof-of-work challenge and solves it in the page. A new `round` resets it.
import { useEffect, useId, useRef, useState } from 'react';
import { completeCaptcha } from './captcha';

/** Props of [`CaptchaCheck`]. */
export interface CaptchaCheckProps {
  /** Changes when the captcha must be completed again. */
  round: number;
  /** Called with the `captchaKey` once solved, `null` when reset. */
  onChange: (key: string | null) => void;
}

type State = 'idle' | 'solving' | 'solved' | 'failed';

const STATUS: Record<State, string> = {
  idle: '',
  solving: 'Checking…',
  solved: 'Verified.',
  failed: 'The spam check could not be completed. Please try again.',
};

export function CaptchaCheck({ round, onChange }: CaptchaCheckProps) {
  const [state, setState] = useState<State>('idle');
  const id = useId();
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    abort.current?.abort();
    setState('idle');
    return () => abort.current?.abort();
  }, [round]);

  const start = () => {
    if (state === 'solving' || state === 'solved') return;
    const controller = new AbortController();
    abort.current = controller;
    setState('solving');
    completeCaptcha(controller.signal).then(
      (key) => {
        if (controller.signal.aborted) return;
        setState('solved');
        onChange(key);
      },
      () => {
        if (controller.signal.aborted) return;
        setState('failed');
        onChange(null);
      },
    );
  };

  return (
    <div className={`captcha captcha--${state}`}>
      <input
        id={`${id}-check`}
        type="checkbox"
        checked={state === 'solved'}
        aria-busy={state === 'solving'}
        aria-describedby={`${id}-status`}
        onChange={start}
      />
      <label htmlFor={`${id}-check`}>I'm not a robot</label>
      <p id={`${id}-status`} className="captcha__status" role="status">
        {STATUS[state]}
      </p>
    </div>
  );
}
