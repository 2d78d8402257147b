// The client's messages and labels are the spec's wording, character for character
// (000 §2, §5, §6, §8, §9 and 001 §4, §6, §8), the dashboard's included.
import { describe, expect, it } from 'vitest';
import { badgeText } from '../commerce/cart';
import { FORMAT_EXPECTS_MONEY } from '../commerce/money';
import * as dashboard from '../dashboard/messages';
import * as data from '../data/messages';
import { UNABLE_TO_REMOVE_ITEM, UNABLE_TO_UPDATE_QUANTITY } from '../islands/cart/cart-page';
import { LIKERT_SCALE } from '../islands/form/fields';
import * as form from '../islands/form/messages';
import { DECODE_ERROR, EVALUATE_ERROR, UNKNOWN_DESIGN } from '../islands/gallery/data';
import { UNKNOWN_TRANSITION } from '../islands/gallery/transitions';
import { VIDEO_LOADER_MISSING } from '../islands/gallery/video-slides';
import { openLightbox } from '../islands/lightbox/lightbox';
import { PREVIEW_TITLE, previewMessage } from '../islands/restaurant-booking/preview';
import { UNABLE_TO_LOAD_RESULTS } from '../islands/search';
import { INVALID_VIDEO_EMBED } from '../islands/video/embed';
import { CUSTOM_FEATURED_IMAGES, VIMEO_BASIC_UNSUPPORTED } from '../islands/video/owner-messages';
import { DEFAULT_ACCEPT_LABEL, DEFAULT_BANNER_TEXT, DEFAULT_DECLINE_LABEL } from '../loader/consent/settings';
import { INVALID_DEFINITION, NO_SUCH_FEATURE, NOT_LOADED, WRONG_TYPE } from '../loader/features';
import { IMAGE_WARNINGS } from '../loader/images/load';
import { IMAGE_LOADING_ERRORS } from '../loader/images/loaded';
import { PERF_ERRORS } from '../loader/telemetry/perf';
import { LOGOUT_MESSAGE, LOGOUT_TITLE } from '../members/logout-dialog';
import { relativeTime } from '../widgets/relative-time/relative-time';
import { enumsFile, str } from './fixtures';

/** [the client's text, the fixture key of the spec's wording]. */
const pins: Array<[ours: string, key: string]> = [
  [LOGOUT_TITLE, 'logout.title'],
  [LOGOUT_MESSAGE, 'logout.message'],
  [badgeText(101).text, 'cart.badgeOverflow'],
  [badgeText(101).spoken, 'cart.badgeOverflowSpoken'],
  [form.SUBMITTING, 'form.submitting'],
  [UNABLE_TO_LOAD_RESULTS, 'interface.unableToLoadResults'],
  [dashboard.SOMETHING_WENT_WRONG, 'interface.somethingWentWrong'],
  [dashboard.UNABLE_TO_LOAD_TRY_AGAIN, 'interface.unableToLoadTryAgain'],
  [dashboard.NETWORK_ERROR, 'interface.networkError'],
  [dashboard.UNABLE_TO_CONNECT_TRY_AGAIN, 'interface.unableToConnectTryAgain'],
  [form.PLEASE_ENTER_VALID_EMAIL, 'interface.pleaseEnterValidEmail'],
  [form.PROCESSING_ERROR, 'form.processingError'],
  [form.UNKNOWN_ERROR, 'form.unknownError'],
  [form.NO_KEY, 'form.noKey'],
  [form.FIELDS_UNPARSEABLE, 'form.fieldsUnparseable'],
  [form.SCROLL_DOWN, 'form.scrollDown'],
  [form.FORM_INVALID, 'validation.formInvalid'],
  [form.EMAIL_INVALID, 'validation.emailInvalid'],
  [form.CHARACTER_LIMIT, 'validation.characterLimit'],
  [form.CAPTCHA_REQUIRED, 'validation.captchaRequired'],
  [form.STATUS_MESSAGES[401]!, 'form.status401'],
  [form.STATUS_MESSAGES[404]!, 'form.status404'],
  [form.STATUS_MESSAGES[429]!, 'form.status429'],
  [form.STATUS_MESSAGES[500]!, 'form.status500'],
  [data.UNABLE_TO_CONNECT, 'data.unableToConnect'],
  [data.statusMessage(401)!, 'data.unauthorized'],
  [data.statusMessage(403)!, 'data.unauthorized'],
  [data.statusMessage(500)!, 'data.internalServerError'],
  [data.statusMessage(501)!, 'data.internalServerError'],
  [data.statusMessage(503)!, 'data.serviceUnavailable'],
  [data.SOMETHING_WENT_WRONG, 'data.somethingWentWrong'],
  [data.RELOAD_PAGE, 'data.overlayReload'],
  [data.CLEAR, 'data.overlayClear'],
  [data.unparseable('{url}', '{message}'), 'data.unparseableJson'],
  [FORMAT_EXPECTS_MONEY, 'money.formatExpectsMoney'],
  [UNABLE_TO_UPDATE_QUANTITY, 'interface.unableToUpdateQuantity'],
  [UNABLE_TO_REMOVE_ITEM, 'interface.unableToRemoveItem'],
  [DEFAULT_BANNER_TEXT, 'cookieBanner.defaultText'],
  [DEFAULT_ACCEPT_LABEL, 'cookieBanner.acceptLabel'],
  [DEFAULT_DECLINE_LABEL, 'cookieBanner.declineLabel'],
  [PREVIEW_TITLE, 'restaurant.previewTitle'],
  [previewMessage('opentable'), 'restaurant.previewMessageOpenTable'],
  [previewMessage('tock'), 'restaurant.previewMessage'],
  [INVALID_VIDEO_EMBED, 'video.invalidEmbed'],
  [CUSTOM_FEATURED_IMAGES, 'video.customFeaturedImages'],
  [VIMEO_BASIC_UNSUPPORTED, 'video.vimeoBasic'],
  [PERF_ERRORS.status, 'perf.unexpectedStatus'],
  [PERF_ERRORS.timeout, 'perf.settingsTimeout'],
  [PERF_ERRORS.pageLoadId, 'perf.noPageLoadId'],
  [IMAGE_WARNINGS.notImage, 'image.notImageElement'],
  [IMAGE_WARNINGS.noSource, 'image.missingSource'],
  [IMAGE_WARNINGS.noParent, 'image.noParentNode'],
  [IMAGE_WARNINGS.noAlignment, 'image.missingAlignment'],
  [IMAGE_LOADING_ERRORS.noImages, 'image.noImages'],
  [IMAGE_LOADING_ERRORS.noRootNode, 'image.noRootNode'],
  [NOT_LOADED, 'features.notLoaded'],
  [NO_SUCH_FEATURE, 'features.noSuchFeature'],
  [WRONG_TYPE, 'features.wrongType'],
  [INVALID_DEFINITION, 'features.invalidDefinition'],
  [UNKNOWN_DESIGN, 'gallery.unknownDesign'],
  [UNKNOWN_TRANSITION, 'gallery.unknownTransition'],
  [VIDEO_LOADER_MISSING, 'gallery.videoLoaderMissing'],
  [DECODE_ERROR, 'gallery.decodeError'],
  [EVALUATE_ERROR, 'gallery.evaluateError'],
  [relativeTime(0, 0), 'relativeTime.justNow'],
];

describe('strings', () => {
  it.each(pins.map(([ours, key]) => ({ ours, key })))('$key is the spec wording', ({ ours, key }) => {
    expect(ours).toBe(str(key));
  });

  it('relative times under a minute read as the spec template', () => {
    const template = str('relativeTime.secondsAgo');
    expect(relativeTime(0, 42_000)).toBe(template.replace('{secondsDifference}', '42'));
  });

  it('the likert scale is labelled from the spec first label to its last', () => {
    const labels = enumsFile.maps.LikertScale.values;
    expect(LIKERT_SCALE[0]).toEqual([-2, labels['-2']]);
    expect(LIKERT_SCALE[LIKERT_SCALE.length - 1]).toEqual([2, labels['2']]);
  });

  it('a lightbox without a title is named as the spec default', () => {
    const lightbox = openLightbox(window, { set: [{ src: '/images/a.png', alt: 'A', caption: 'a' }], currentSetIndex: 0 });
    expect(document.querySelector('[role="dialog"]')!.getAttribute('aria-label')).toBe(str('lightbox.defaultTitle'));
    lightbox.close();
    document.body.replaceChildren();
  });
});
