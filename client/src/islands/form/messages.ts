// Every message a form shows. Spec strings (000 §5, §8) are copied verbatim; the others
// are the server's own wording (actors/src/forms/messages.rs), so both sides agree.

/** Spec §8: the submit button's text while submitting. */
export const SUBMITTING = 'Submitting…';
/** Spec §8: the submission could not be sent or read back. */
export const PROCESSING_ERROR = 'Error processing form submission. Please reload and try again.';
/** Spec §8: a failure that carries no message. */
export const UNKNOWN_ERROR = 'Unknown error, please try again later.';
/** Spec §8: no submission key came. */
export const NO_KEY = 'Could not get a form submission key, please try again later.';
/** Spec §8: the server could not read the values. */
export const FIELDS_UNPARSEABLE = 'Could not parse the form fields, please check your entries.';
/**
 * Spec §5: the whole-form check's message, above and below the fields, when the browser's
 * own check finds invalid fields (the caller may switch that check off).
 */
export const FORM_INVALID = 'One or more fields is invalid, please check your entries.';
/** Spec §8: shown above the fields when the server's answer marks some fields invalid. */
export const SCROLL_DOWN = 'Your form has encountered a problem. Please scroll down to review.';
/** The variant of [`SCROLL_DOWN`] shown below the fields. */
export const SCROLL_UP = 'Your form has encountered a problem. Please scroll up to review.';
/** Spec §5: an email field that does not follow the pattern. */
export const EMAIL_INVALID = 'Email is not valid. Email addresses should follow the format {email}.';
/** The example address put in place of `{email}` (the server uses the same). */
export const EXAMPLE_EMAIL = 'name@example.com';
/**
 * Spec 000 §5 / 001 §5 interface validation string: an email address that does not follow
 * the pattern, where a form asks for nothing but an address (the newsletter sign-up).
 */
export const PLEASE_ENTER_VALID_EMAIL = 'Please enter a valid email';
/** Spec §5: a textarea over its maximum. */
export const CHARACTER_LIMIT = 'You have exceeded the character limit.';
/** Spec §5: submit pressed before the captcha was completed. */
export const CAPTCHA_REQUIRED = 'Complete CAPTCHA before submitting.';
/** Spec 000 §8: a reCAPTCHA site that is not set up (no site key here; no secret on the server). */
export const RECAPTCHA_UNSET = 'ReCaptcha has not been set up!';
/** The server's message for an empty required field (`{field}`: its title). */
export const FIELD_REQUIRED = '{field} is required.';
/** The server's message for a US zip that is not 5 digits. */
export const US_ZIP_INVALID = 'Zip codes in the United States have exactly 5 digits.';

/** Spec §8: messages by status. */
export const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  401: 'Unable to submit form. Please try again later.',
  404: 'This form has not been configured yet.',
  429: 'Unable to submit form. Submission rate limit exceeded. Please try again later.',
  500: 'Unable to send form. Please try again later.',
};

/** [`EMAIL_INVALID`] with the example address. */
export function emailInvalid(): string {
  return EMAIL_INVALID.replace('{email}', EXAMPLE_EMAIL);
}

/** [`FIELD_REQUIRED`] for `title`. */
export function fieldRequired(title: string): string {
  return FIELD_REQUIRED.replace('{field}', title);
}
