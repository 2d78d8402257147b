//! Every message the forms answer with, defined once. Strings marked "spec" are copied
//! verbatim from spec 000 §5 and §8; the others are ours, where the spec shows none.

/// An address visitors can copy the format of, put in place of `{email}` in
/// [`EMAIL_INVALID`].
pub const EXAMPLE_EMAIL: &str = "name@example.com";

/// Spec §5: an email field's value does not follow the pattern. `{email}` is replaced
/// by [`EXAMPLE_EMAIL`] (see [`email_invalid`]).
pub const EMAIL_INVALID: &str = "Email is not valid. Email addresses should follow the format {email}.";

/// Spec §5: a textarea holds more characters than its maximum.
pub const CHARACTER_LIMIT: &str = "You have exceeded the character limit.";

/// Spec §5: the whole form, when any field is invalid.
pub const FORM_INVALID: &str = "One or more fields is invalid, please check your entries.";

/// Spec §5: a form with a captcha was sent without its proof.
pub const CAPTCHA_MISSING: &str = "Complete CAPTCHA before submitting.";

/// Ours: the captcha proof is not a solved challenge this server issued (bad encoding,
/// wrong number, or a signature that does not verify).
pub const CAPTCHA_INVALID: &str = "The CAPTCHA answer could not be verified. Please complete the CAPTCHA again.";

/// Ours: the captcha challenge's time ran out before the form was sent.
pub const CAPTCHA_EXPIRED: &str = "The CAPTCHA has expired. Please complete the CAPTCHA again.";

/// Ours: the solved captcha challenge was already used for a submission.
pub const CAPTCHA_REUSED: &str = "This CAPTCHA has already been used. Please complete the CAPTCHA again.";

/// Spec §8 ("Other"): a form asks for reCAPTCHA and none is configured.
pub const RECAPTCHA_NOT_SET_UP: &str = "ReCaptcha has not been set up!";

/// Ours: the reCAPTCHA service refused the token, or could not be asked.
pub const RECAPTCHA_REFUSED: &str = "The CAPTCHA could not be verified. Please complete the CAPTCHA again.";

/// Ours (429): too many captcha challenges asked for from one address.
pub const CHALLENGES_LIMITED: &str = "Too many CAPTCHA challenges were requested. Please try again later.";

/// Spec §8: the `form` values could not be read.
pub const FIELDS_UNPARSEABLE: &str = "Could not parse the form fields, please check your entries.";

/// Spec §8 (404): no form in the site has the submitted `formId`.
pub const FORM_NOT_CONFIGURED: &str = "This form has not been configured yet.";

/// Spec §8 (429): too many submissions from one address to one form.
pub const RATE_LIMITED: &str = "Unable to submit form. Submission rate limit exceeded. Please try again later.";

/// Spec §8 (500): the submission could not be stored.
pub const SEND_FAILED: &str = "Unable to send form. Please try again later.";

/// Ours (401): why the server refused the submission key. The page shows its own
/// 401 message ('Unable to submit form. Please try again later.') first.
pub const KEY_REFUSED: &str = "The submission key is missing, used or expired.";

/// Ours: a required field was left empty. `{field}` is the field's title (its id when
/// it has no title).
pub const FIELD_REQUIRED: &str = "{field} is required.";

/// Ours: an address in the United States whose zip code is not exactly 5 digits.
pub const US_ZIP_INVALID: &str = "Zip codes in the United States have exactly 5 digits.";

/// Ours (413): the request body is larger than the server accepts.
pub const BODY_TOO_LARGE: &str = "The submission is too large.";

/// [`EMAIL_INVALID`] with the example address in place.
pub fn email_invalid() -> String {
    EMAIL_INVALID.replace("{email}", EXAMPLE_EMAIL)
}

/// [`FIELD_REQUIRED`] for the field titled `title`.
pub fn field_required(title: &str) -> String {
    FIELD_REQUIRED.replace("{field}", title)
}
