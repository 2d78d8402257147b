// The form island's view: the fields, the top error node (and its scroll-up twin below the
// fields), the captcha, the submit button with its 'Submitting…' lock, and after success
// the success text and HTML, which take the focus. Newsletter blocks use it too.
import { useEffect, useRef, type FormEvent, type ReactNode } from 'react';
import { scrollToElement } from '../../widgets/motion/tween';
import { CaptchaControl } from './captcha-control';
import { FieldView, fieldIds } from './fields';
import { SCROLL_DOWN, SCROLL_UP, SUBMITTING } from './messages';
import type { Form } from './parse';
import { useSubmission } from './use-submission';
import { collectValues } from './values';
import './form.css';

/** Props of [`FormView`]. */
export interface FormViewProps {
  form: Form;
  /** The block id (ids of the form's elements start with `<variant>-<block id>`). */
  blockId: string;
  /** `form`, or `newsletter` for a sign-up block. */
  variant: 'form' | 'newsletter';
  /** Text under the heading (newsletters). */
  description?: string;
}

export function FormView({ form, blockId, variant, description }: FormViewProps) {
  const prefix = `${variant}-${blockId}`;
  const newsletter = variant === 'newsletter';
  const state = useSubmission({
    formId: form.formId,
    blockId,
    submitButtonText: form.submitButtonText,
    fields: form.fields,
    captcha: form.captcha,
    newsletter,
    validate: form.validate,
    emailMessage: form.emailMessage,
  });
  const formRef = useRef<HTMLFormElement>(null);
  const topRef = useRef<HTMLDivElement>(null);
  const successRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state.succeeded) successRef.current?.focus();
  }, [state.succeeded]);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const el = formRef.current;
    if (!el || state.submitting) return;
    void state.onSubmit(collectValues(el, form.fields, window.location.search)).then((errors) => {
      const first = form.fields.find((f) => errors[f.id]);
      if (first) focusField(el, fieldIds(prefix, first).input);
      // The whole-form message is shown 30 px below the top of the window (001 §9 scroll).
      else if (topRef.current && !topRef.current.hidden) void scrollToElement(topRef.current);
    });
  };

  const titleId = `${prefix}-title`;
  const hasTitle = form.title.trim() !== '';
  if (state.succeeded) {
    return (
      <div ref={successRef} className={`${variant}-success`} tabIndex={-1} role="status">
        <p className="form-success__message">{form.successMessage}</p>
        {state.succeeded.postSubmitHtml !== '' && (
          // The server sanitised this HTML (ammonia) when the site was loaded.
          <div className="form-success__html" dangerouslySetInnerHTML={{ __html: state.succeeded.postSubmitHtml }} />
        )}
      </div>
    );
  }

  const message = state.formMessage;
  const below = message === SCROLL_DOWN ? SCROLL_UP : message;
  const content: ReactNode = form.fields.map((field) => (
    <FieldView key={field.id} field={field} prefix={prefix} error={state.fieldErrors[field.id]} />
  ));
  return (
    <form
      ref={formRef}
      method="post"
      action="/api/form/SaveFormSubmission"
      className={variant}
      data-form-id={form.formId}
      aria-labelledby={hasTitle ? titleId : undefined}
      aria-busy={state.submitting}
      noValidate
      onSubmit={onSubmit}
    >
      {hasTitle && <h2 id={titleId}>{form.title}</h2>}
      {description && <p id={`${prefix}-desc`}>{description}</p>}
      <div ref={topRef} className="form-errors" role="alert" hidden={!message}>
        {message}
      </div>
      {content}
      {form.disclaimer.trim() !== '' && <p className="disclaimer muted">{form.disclaimer}</p>}
      {form.captcha && <CaptchaControl round={state.captchaRound} onChange={state.setCaptchaKey} />}
      <div className="form-errors form-errors--below" hidden={!below}>
        {below}
      </div>
      <p>
        <button type="submit" disabled={state.buttonDisabled} aria-disabled={state.submitting || undefined}>
          {state.submitting ? SUBMITTING : form.submitButtonText}
        </button>
      </p>
    </form>
  );
}

/** Focuses a field's input, or the first input of a fieldset. */
function focusField(form: HTMLFormElement, id: string) {
  const el = form.ownerDocument.getElementById(id);
  if (!el) return;
  const target = el instanceof HTMLFieldSetElement ? el.querySelector<HTMLElement>('input, select, textarea') : el;
  target?.focus();
}
