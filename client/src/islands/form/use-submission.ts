// The form's states (spec 000 §4): idle; submitting (locked, repeat submits ignored); then
// success (newsletter sign-up event, form-success event, then a redirect or the success
// text) or failure (unlocked, errors shown, the captcha reset and the button disabled
// until it is completed again).
import { useCallback, useRef, useState } from 'react';
import { CAPTCHA_REQUIRED, FORM_INVALID, SCROLL_DOWN } from './messages';
import type { Field } from './parse';
import { submit } from './submit';
import { validate, type FieldErrors } from './validate';
import type { Values } from './values';

/** Fired on `window` after every successful submission, with `{ formId, blockId }`. */
export const FORM_SUCCESS_EVENT = 'veranda:form-success';
/** Fired on `window` after a newsletter sign-up, with `{ formId }`. */
export const NEWSLETTER_SIGNUP_EVENT = 'veranda:newsletter-signup';

/** Leaving the page after success (replaced in tests). */
export const navigation = {
  assign: (url: string): void => window.location.assign(url),
};

/** What the form is set up with. */
export interface SubmissionSetup {
  formId: string;
  blockId: string;
  submitButtonText: string;
  fields: Field[];
  captcha: boolean;
  /** Newsletter forms track the sign-up and show no above-fields message on field errors. */
  newsletter: boolean;
  /**
   * The whole-form check (000 §5): each field checked before sending, the invalid ones
   * marked and the whole-form message ('One or more fields is invalid, …') shown above and
   * below the fields. A server answer that marks fields shows §8's 'Your form has encountered
   * a problem. Please scroll down to review.' above them and its scroll-up twin below. The caller may
   * switch it off (false): the values go to the server as they are, and only its answer
   * (field errors, messages) is shown. True when not given.
   */
  validate?: boolean;
  /** The message for an invalid email address, when not the §5 form message. */
  emailMessage?: string;
}

/** The form's state and its one action. */
export interface Submission {
  submitting: boolean;
  /** Set once the submission succeeded: the HTML to show under the success text. */
  succeeded: { postSubmitHtml: string } | null;
  fieldErrors: FieldErrors;
  /** The message above the fields (and its scroll-up twin below them), if any. */
  formMessage: string | null;
  /** The solved captcha, if any. */
  captchaKey: string | null;
  setCaptchaKey: (key: string | null) => void;
  /** Bumped when the captcha must be completed again. */
  captchaRound: number;
  /** The submit button is disabled: a failure reset the captcha and it is not done again. */
  buttonDisabled: boolean;
  /** Checks `values` and sends them; resolves with the field errors found (empty when none). */
  onSubmit: (values: Values) => Promise<FieldErrors>;
}

export function useSubmission(setup: SubmissionSetup): Submission {
  const [submitting, setSubmitting] = useState(false);
  const [succeeded, setSucceeded] = useState<{ postSubmitHtml: string } | null>(null);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const [formMessage, setFormMessage] = useState<string | null>(null);
  const [captchaKey, setCaptchaKey] = useState<string | null>(null);
  const [captchaRound, setCaptchaRound] = useState(0);
  const [captchaBlocked, setCaptchaBlocked] = useState(false);
  const locked = useRef(false);

  // Newsletter sign-ups show their one field's message only (000 §8: not for newsletter forms).
  const checkMessage = setup.newsletter ? null : FORM_INVALID;
  const fieldMessage = setup.newsletter ? null : SCROLL_DOWN;

  const onSubmit = useCallback(
    async (values: Values): Promise<FieldErrors> => {
      if (locked.current) return {};
      const errors = setup.validate === false ? {} : validate(setup.fields, values, { email: setup.emailMessage });
      setFieldErrors(errors);
      if (Object.keys(errors).length > 0) {
        setFormMessage(checkMessage);
        return errors;
      }
      if (setup.captcha && !captchaKey) {
        setFormMessage(CAPTCHA_REQUIRED);
        return {};
      }
      locked.current = true;
      setSubmitting(true);
      setFormMessage(null);
      const outcome = await submit({
        formId: setup.formId,
        blockId: setup.blockId,
        submitButtonText: setup.submitButtonText,
        values,
        captchaKey: captchaKey ?? undefined,
      });
      if (outcome.ok) {
        if (setup.newsletter) {
          window.dispatchEvent(new CustomEvent(NEWSLETTER_SIGNUP_EVENT, { detail: { formId: setup.formId } }));
        }
        window.dispatchEvent(
          new CustomEvent(FORM_SUCCESS_EVENT, { detail: { formId: setup.formId, blockId: setup.blockId } }),
        );
        if (outcome.redirectUrl) {
          navigation.assign(outcome.redirectUrl);
          return {};
        }
        setSucceeded({ postSubmitHtml: outcome.postSubmitHtml });
        setSubmitting(false);
        return {};
      }
      locked.current = false;
      setSubmitting(false);
      setFieldErrors(outcome.fieldErrors);
      const hasFieldErrors = Object.keys(outcome.fieldErrors).length > 0;
      setFormMessage(hasFieldErrors ? fieldMessage : outcome.message);
      if (setup.captcha) {
        setCaptchaKey(null);
        setCaptchaRound((round) => round + 1);
        setCaptchaBlocked(true);
      }
      return outcome.fieldErrors;
    },
    [setup, captchaKey, checkMessage, fieldMessage],
  );

  return {
    submitting,
    succeeded,
    fieldErrors,
    formMessage,
    captchaKey,
    setCaptchaKey,
    captchaRound,
    buttonDisabled: setup.captcha && captchaBlocked && !captchaKey,
    onSubmit,
  };
}
