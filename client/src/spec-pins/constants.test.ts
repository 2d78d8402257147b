// The client's timings, thresholds and limits are the spec's literals (000 §9, 001 §9 and the
// sections they come from). A test that advances a clock by one of these constants is only as
// good as the constant, so each constant is pinned here.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { badgeText } from '../commerce/cart';
import { CURRENCIES, DEFAULT_CURRENCY, MAX_INTEGER_PLACES } from '../commerce/money';
import { RETRY_DELAY_MS } from '../data';
import { ACCORDION_ANIMATION_MS } from '../islands/accordion/accordion';
import { INSTAGRAM_POPUP } from '../islands/gallery/click-through';
import { AUTO_COLUMN_GUTTER, AUTO_COLUMN_WIDTH } from '../islands/gallery/columns';
import { parseGalleryData, placeholderPercent } from '../islands/gallery/data';
import { OVERFLOW_RATIO, RESIZE_DEBOUNCE_MS } from '../islands/gallery/meta';
import { RESIZE_EMITTER_DEFAULT_MS, RESIZE_EMITTER_MS } from '../islands/gallery/resize';
import { Autoplay, carouselSlidesPerRow, SWIPE } from '../islands/gallery/motion';
import { STRIP_SPEED_MS, thumbRatio } from '../islands/gallery/thumbs';
import { BASE_Z_INDEX } from '../islands/gallery/viewer';
import { KEN_BURNS_ZOOM, NEW_SWIPE, SWIPE_MS, transitionTiming } from '../islands/gallery/transitions';
import { LIGHTBOX } from '../islands/lightbox/timing';
import { VIDEO_LOADER } from '../islands/lightbox/video';
import { DEFAULT_CENTER, DEFAULT_ZOOM, parseMapOptions, SCRIPT_TIMEOUT_MS, UPDATE_DEBOUNCE_MS } from '../islands/map/options';
import { marqueeProps, MIN_REGION_WIDTH, RERENDER_DEBOUNCE_MS, waveSegmentWidth } from '../islands/marquee/props';
import { NARROW_WIDTH } from '../islands/newsletter';
import { OPENTABLE_WIDE_ABOVE_PX, TOCK_COLUMN_MAX_PX } from '../islands/restaurant-booking/layout';
import { MIN_FONT_SIZE_PX } from '../islands/scaled-text/scaled-text';
import { DEFAULT_PADDING_RATIO } from '../islands/video/embed';
import { normaliseBanner } from '../loader/consent/settings';
import { BANNER_VERSION, CONSENT_COOKIE, CONSENT_MAX_AGE_SECONDS } from '../loader/consent/state';
import { SIZE_LADDER } from '../loader/images/ladder';
import { imageConcurrency } from '../loader/images/queue';
import { CENSUS_TIMEOUT_MS } from '../loader/telemetry/census';
import {
  ANALYTICS_COOKIES,
  VISIT_COOKIE,
  VISIT_MAX_AGE_SECONDS,
  VISITOR_COOKIE,
  VISITOR_MAX_AGE_SECONDS,
} from '../loader/telemetry/cookies';
import { DEBOUNCE_MS, MAX_QUEUED, MAX_SENDS, MAX_STACK } from '../loader/telemetry/errors';
import { FIRST_FLUSH_MS, SETTINGS_TIMEOUT_MS } from '../loader/telemetry/perf';
import { ANALYTICS_COOKIE, ANALYTICS_MAX_AGE_SECONDS, SESSION_COOKIE } from '../loader/telemetry/session';
import { TRACE_FLUSH_MS } from '../loader/telemetry/trace';
import { ANIMATION_THRESHOLDS, VISIBLE_RATIO } from '../widgets/animations/animations';
import { HIDE_SHOW_SECONDS, SCALE_HIDE } from '../widgets/animations/hide-show';
import { SCROLL_MAX_MS, SCROLL_MIN_MS, SCROLL_OFFSET, TWEEN_MS, easeOutSine } from '../widgets/motion/tween';
import { THROTTLE_SAMPLES } from '../widgets/throttle/throttle';
import { MOBILE_MAX_WIDTH } from '../widgets/popup-overlay/rules';
import {
  HIDE_TRANSITION_MS,
  INFORMATION_HIDE_AFTER_MS,
  MODAL_Z_INDEX,
  POPUP_PADDING,
  POPUP_WIDTH,
} from '../widgets/popups/popups';
import { RELATIVE_TIME_REFRESH_MS } from '../widgets/relative-time/relative-time';
import { FOLLOW_SCRIPT_TIMEOUT_MS } from '../widgets/script/script';
import {
  TOOLTIP_DELAY_MS,
  TOOLTIP_EDGE_MARGIN,
  TOOLTIP_OFFSET,
  TOOLTIP_WIDTH,
} from '../widgets/tooltip/tooltip';
import { constant, num } from './fixtures';

const DAY_S = 24 * 60 * 60;
const HERE = dirname(fileURLToPath(import.meta.url));

/** [what the client has, the spec's literal in the client's unit, the fixture key]. */
type Pin = [ours: unknown, spec: unknown, key: string];

const pins: Pin[] = [
  // 000: analytics, consent, error reports
  [CENSUS_TIMEOUT_MS, num('census.timeoutMs'), 'census.timeoutMs'],
  [CENSUS_TIMEOUT_MS, num('census.censusPostTimeoutMs'), 'census.censusPostTimeoutMs'],
  [TRACE_FLUSH_MS, num('trace.flushSeconds') * 1000, 'trace.flushSeconds'],
  [MAX_SENDS, num('errorReports.maxSendsPerPage'), 'errorReports.maxSendsPerPage'],
  [MAX_QUEUED, num('errorReports.maxQueued'), 'errorReports.maxQueued'],
  [MAX_STACK, num('errorReports.maxStackChars'), 'errorReports.maxStackChars'],
  [DEBOUNCE_MS, num('errorReports.debounceMs'), 'errorReports.debounceMs'],
  [RETRY_DELAY_MS, num('data.retryDelayMs'), 'data.retryDelayMs'],
  [VISITOR_COOKIE, constant('cookies.visitor'), 'cookies.visitor'],
  [VISIT_COOKIE, constant('cookies.visitTimestamp'), 'cookies.visitTimestamp'],
  [CONSENT_COOKIE, constant('cookies.consent'), 'cookies.consent'],
  [SESSION_COOKIE, constant('cookies.sessionId'), 'cookies.sessionId'],
  [ANALYTICS_COOKIE, constant('cookies.analyticsId'), 'cookies.analyticsId'],
  // "2 years" read as two 365-day years.
  [VISITOR_MAX_AGE_SECONDS, num('cookies.visitorMaxAgeYears') * 365 * DAY_S, 'cookies.visitorMaxAgeYears'],
  [VISIT_MAX_AGE_SECONDS, num('cookies.visitTimestampMaxAgeMinutes') * 60, 'cookies.visitTimestampMaxAgeMinutes'],
  [CONSENT_MAX_AGE_SECONDS, num('cookies.consentMaxAgeDays') * DAY_S, 'cookies.consentMaxAgeDays'],
  [ANALYTICS_MAX_AGE_SECONDS, num('cookies.analyticsIdMaxAgeDays') * DAY_S, 'cookies.analyticsIdMaxAgeDays'],
  [[...ANALYTICS_COOKIES], constant('cookies.clearedWithoutConsent'), 'cookies.clearedWithoutConsent'],
  [BANNER_VERSION, num('cookieBanner.version'), 'cookieBanner.version'],
  // 000: commerce, widths, animation
  [[...CURRENCIES], constant('currencies.supported'), 'currencies.supported'],
  [DEFAULT_CURRENCY, constant('currencies.default'), 'currencies.default'],
  [MAX_INTEGER_PLACES, num('money.maxIntegerPlaces'), 'money.maxIntegerPlaces'],
  [NARROW_WIDTH, num('widths.newsletterNarrowBelowPx'), 'widths.newsletterNarrowBelowPx'],
  [MOBILE_MAX_WIDTH, num('widths.mobileMaxPx'), 'widths.mobileMaxPx'],
  [LIGHTBOX.mobileMaxWidth, num('breakpoints.mobileMaxPx'), 'breakpoints.mobileMaxPx'],
  [MODAL_Z_INDEX, num('modal.baseZIndex'), 'modal.baseZIndex'],
  [ANIMATION_THRESHOLDS, constant('animation.thresholds'), 'animation.thresholds'],
  [VISIBLE_RATIO, num('animation.visibleRatio'), 'animation.visibleRatio'],
  [HIDE_SHOW_SECONDS, num('animation.defaultSeconds'), 'animation.defaultSeconds'],
  [SCALE_HIDE, num('animation.scaleHide'), 'animation.scaleHide'],
  [THROTTLE_SAMPLES, num('throttle.samples'), 'throttle.samples'],
  [THROTTLE_SAMPLES, num('throttle.samples001'), 'throttle.samples001'],
  [SCROLL_OFFSET, num('scroll.offsetDefault'), 'scroll.offsetDefault'],
  [SCROLL_MIN_MS, num('scroll.durationDefault'), 'scroll.durationDefault'],
  [SCROLL_MAX_MS, num('scroll.durationDefault'), 'scroll.durationDefault'],
  [TWEEN_MS, num('tween.defaultDurationMs'), 'tween.defaultDurationMs'],
  // 001: images, lightbox, popups, tooltips
  [[...SIZE_LADDER], constant('image.sizeLadder'), 'image.sizeLadder'],
  [imageConcurrency(false), num('gallery.imageQueueConcurrency'), 'gallery.imageQueueConcurrency'],
  [imageConcurrency(true), num('gallery.imageQueueConcurrencyMobile'), 'gallery.imageQueueConcurrencyMobile'],
  [LIGHTBOX.overlayFadeMs, num('lightbox.overlayFadeSeconds') * 1000, 'lightbox.overlayFadeSeconds'],
  [LIGHTBOX.contentFadeMs, num('lightbox.contentFadeSeconds') * 1000, 'lightbox.contentFadeSeconds'],
  [LIGHTBOX.slideMs, num('lightbox.slideSpeedSeconds') * 1000, 'lightbox.slideSpeedSeconds'],
  [LIGHTBOX.keyThrottleMs, num('lightbox.arrowThrottleMs'), 'lightbox.arrowThrottleMs'],
  [LIGHTBOX.edgeZone, num('lightbox.edgeClickZone'), 'lightbox.edgeClickZone'],
  [[LIGHTBOX.keyLeft, LIGHTBOX.keyRight], constant('lightbox.keyCodes'), 'lightbox.keyCodes'],
  [VIDEO_LOADER.reloadResizeMs, num('lightbox.videoReloadResizeMs'), 'lightbox.videoReloadResizeMs'],
  [VIDEO_LOADER.retries, num('lightbox.loaderRetries'), 'lightbox.loaderRetries'],
  [VIDEO_LOADER.retryMs, num('lightbox.loaderRetryMs'), 'lightbox.loaderRetryMs'],
  [POPUP_WIDTH, num('confirmation.width'), 'confirmation.width'],
  [POPUP_PADDING, num('confirmation.padding'), 'confirmation.padding'],
  [HIDE_TRANSITION_MS, num('confirmation.hideTransitionMs'), 'confirmation.hideTransitionMs'],
  [INFORMATION_HIDE_AFTER_MS, num('confirmation.informationHideAfterMs'), 'confirmation.informationHideAfterMs'],
  [TOOLTIP_DELAY_MS, num('tooltip.showDelayMs'), 'tooltip.showDelayMs'],
  [TOOLTIP_WIDTH, num('tooltip.width'), 'tooltip.width'],
  [TOOLTIP_OFFSET, num('tooltip.mouseOffset'), 'tooltip.mouseOffset'],
  [TOOLTIP_EDGE_MARGIN, num('tooltip.edgeMargin'), 'tooltip.edgeMargin'],
  [RELATIVE_TIME_REFRESH_MS, num('relativeTime.refreshMs'), 'relativeTime.refreshMs'],
  [MIN_FONT_SIZE_PX, num('text.shrinkMinFontSize'), 'text.shrinkMinFontSize'],
  [DEFAULT_PADDING_RATIO, num('video.defaultPaddingRatio'), 'video.defaultPaddingRatio'],
  // 001: galleries
  [KEN_BURNS_ZOOM, num('gallery.kenBurnsZoom'), 'gallery.kenBurnsZoom'],
  [SWIPE_MS, num('gallery.swipeTransitionSeconds') * 1000, 'gallery.swipeTransitionSeconds'],
  [NEW_SWIPE.minMs, num('gallery.newSwipeMinSeconds') * 1000, 'gallery.newSwipeMinSeconds'],
  [NEW_SWIPE.wideMinMs, num('gallery.newSwipeWideMinSeconds') * 1000, 'gallery.newSwipeWideMinSeconds'],
  [NEW_SWIPE.maxMs, num('gallery.newSwipeMaxSeconds') * 1000, 'gallery.newSwipeMaxSeconds'],
  [NEW_SWIPE.narrowBelowPx, num('gallery.narrowWindowBelowPx'), 'gallery.narrowWindowBelowPx'],
  [SWIPE.distancePx, num('gallery.swipeDistancePx'), 'gallery.swipeDistancePx'],
  [SWIPE.withinMs, num('gallery.swipeWithinMs'), 'gallery.swipeWithinMs'],
  [SWIPE.axisLockPx, num('gallery.dragAxisLockPx'), 'gallery.dragAxisLockPx'],
  [STRIP_SPEED_MS, num('gallery.stripSpeedSeconds') * 1000, 'gallery.stripSpeedSeconds'],
  [OVERFLOW_RATIO, num('gallery.metaOverflowRatio'), 'gallery.metaOverflowRatio'],
  [RESIZE_DEBOUNCE_MS, num('gallery.resizeDebounceMs'), 'gallery.resizeDebounceMs'],
  [RESIZE_EMITTER_MS, num('gallery.resizeEmitterMs'), 'gallery.resizeEmitterMs'],
  [AUTO_COLUMN_WIDTH, num('gallery.autocolumnsColumnWidth'), 'gallery.autocolumnsColumnWidth'],
  [AUTO_COLUMN_GUTTER, num('gallery.autocolumnsGutter'), 'gallery.autocolumnsGutter'],
  [INSTAGRAM_POPUP.width, num('gallery.instagramPopupWidth'), 'gallery.instagramPopupWidth'],
  [INSTAGRAM_POPUP.height, num('gallery.instagramPopupHeight'), 'gallery.instagramPopupHeight'],
  // "Resize emitter timeout 100 ms (default 300)": the default is quoted, not a key of its own.
  [RESIZE_EMITTER_DEFAULT_MS, 300, 'gallery.resizeEmitterMs'],
  [new Autoplay(() => {}, false).interval, num('gallery.autoplayMs'), 'gallery.autoplayMs'],
  // 001: map, marquee, accordion, restaurant booking, scripts, performance
  [ACCORDION_ANIMATION_MS, num('accordion.animationMs'), 'accordion.animationMs'],
  [UPDATE_DEBOUNCE_MS, num('map.optionDebounceMs'), 'map.optionDebounceMs'],
  [SCRIPT_TIMEOUT_MS, num('map.scriptTimeoutSeconds') * 1000, 'map.scriptTimeoutSeconds'],
  [SCRIPT_TIMEOUT_MS, num('mapScript.timeoutSeconds') * 1000, 'mapScript.timeoutSeconds'],
  [[DEFAULT_CENTER.lat, DEFAULT_CENTER.lng], [num('map.defaultCenterLat'), num('map.defaultCenterLng')], 'map.defaultCenter'],
  [DEFAULT_ZOOM, num('map.defaultZoom'), 'map.defaultZoom'],
  [MIN_REGION_WIDTH, num('marquee.minRegionWidth'), 'marquee.minRegionWidth'],
  [RERENDER_DEBOUNCE_MS, num('marquee.rerenderDebounceMs'), 'marquee.rerenderDebounceMs'],
  [TOCK_COLUMN_MAX_PX, num('restaurant.tockColumnMaxPx'), 'restaurant.tockColumnMaxPx'],
  [OPENTABLE_WIDE_ABOVE_PX, num('restaurant.wideAbovePx'), 'restaurant.wideAbovePx'],
  [FOLLOW_SCRIPT_TIMEOUT_MS, num('followScript.timeoutSeconds') * 1000, 'followScript.timeoutSeconds'],
  [SETTINGS_TIMEOUT_MS, num('perf.settingsTimeoutSeconds') * 1000, 'perf.settingsTimeoutSeconds'],
  [FIRST_FLUSH_MS, num('perf.flushSeconds') * 1000, 'perf.flushSeconds'],
];

describe('constants', () => {
  it.each(pins.map(([ours, spec, key]) => ({ ours, spec, key })))('$key is the spec literal', ({ ours, spec }) => {
    expect(ours).toEqual(spec);
  });
});

describe('defaults and thresholds in behaviour', () => {
  it('gallery block data falls back to the spec defaults', () => {
    const options = parseGalleryData({ design: 'slideshow' })!;
    expect(options.interval).toBe(num('gallery.autoplayDefaultMs'));
    expect(options.slidesPerRow).toBe(num('gallery.carouselSlidesPerRow'));
    expect(options.vSize).toBe(num('gallery.stripVSize'));
    expect(options.activeClick).toBe(constant('gallery.activeSlideClickDefault'));
    expect(options.transition).toBe(constant('gallery.stackedTransition'));
  });

  it('gallery placeholders and video thumbnails take the spec proportions', () => {
    expect(placeholderPercent('Auto')).toBe(num('placeholder.defaultAspectRatio'));
    expect(parseGalleryData({ design: 'slider' })!.placeholder).toBe(num('slider.defaultAspectRatio'));
    expect(parseGalleryData({})!.layout).toBe('base');
    const [w, h] = constant('gallery.thumbnailVideoRatio') as number[];
    const video = document.createElement('li');
    video.setAttribute('data-type', 'video');
    expect(thumbRatio(video)).toBe(`${w} / ${h}`);
    expect(BASE_Z_INDEX).toBe(num('gallery.baseZIndex'));
  });

  it('carousels narrow at the spec widths', () => {
    const [narrow, medium] = [num('gallery.carouselNarrowBelowPx'), num('gallery.carouselMediumBelowPx')];
    expect(carouselSlidesPerRow(4, narrow - 1)).toBe(2);
    expect(carouselSlidesPerRow(4, narrow)).toBe(3);
    expect(carouselSlidesPerRow(4, medium - 1)).toBe(3);
    expect(carouselSlidesPerRow(4, medium)).toBe(4);
  });

  it('a fade leaves over the spec factor of its speed', () => {
    const speedMs = num('gallery.stackedSpeedSeconds') * 1000;
    const timing = transitionTiming('fade', { speedMs, motion: true, windowWidth: 1024 });
    expect(timing.inMs).toBe(speedMs);
    expect(timing.outMs).toBeCloseTo(speedMs * num('gallery.fadeOutgoingFactor'));
  });

  it('marquee props and wave segments follow the spec defaults and bounds', () => {
    const props = marqueeProps({});
    expect(props.waveFrequency).toBe(num('marquee.defaultWaveFrequency'));
    expect(props.waveIntensity).toBe(num('marquee.defaultWaveIntensity'));
    expect(props.animationDirection).toBe(constant('marquee.defaultDirection'));
    expect(props.animationSpeed).toBe(num('marquee.defaultSpeed'));
    expect(props.pausedOnHover).toBe(constant('marquee.defaultPausedOnHover'));
    expect(waveSegmentWidth(0.5)).toBe(num('marquee.waveSegmentMax'));
    expect(waveSegmentWidth(100)).toBe(num('marquee.waveSegmentMin'));
  });

  it('a map without options is centred and zoomed as the spec says, in its default style', () => {
    const options = parseMapOptions({});
    expect(options.center).toEqual({ lat: num('map.defaultCenterLat'), lng: num('map.defaultCenterLng') });
    expect(options.marker).toEqual(options.center);
    expect(options.zoom).toBe(num('map.defaultZoom'));
    expect(options.style).toBe(constant('map.defaultStyle'));
  });

  it('block animations hide at the spec scale and last the spec default', () => {
    const animationsCss = readFileSync(join(HERE, '../widgets/animations/animations.css'), 'utf8');
    expect(animationsCss).toContain(`scale(${num('animation.scaleHide')})`);
    expect(animationsCss).toContain(`var(--block-animation-duration, ${num('animation.defaultSeconds')}s)`);
  });

  it('page scrolls ease with the spec easing', () => {
    expect(easeOutSine.name).toBe(constant('scroll.easing'));
    expect(easeOutSine(0.5)).toBeCloseTo(Math.sin(Math.PI / 4));
  });

  it('the cart badge caps its count at the spec number', () => {
    const max = num('cart.badgeMaxCount');
    expect(badgeText(max).text).toBe(String(max));
    expect(badgeText(max + 1).text).toBe(`${max}+`);
  });

  it('an invalid cookie banner falls back to the spec defaults', () => {
    const banner = normaliseBanner({
      cookieBannerVariant: 'nonsense',
      cookieBannerTheme: 'nonsense',
      cookieBannerCtaVariant: 'nonsense',
      cookieBannerAcceptType: 'nonsense',
    });
    expect(banner.variant).toBe(constant('cookieBanner.defaultVariant'));
    expect(banner.theme).toBe(constant('cookieBanner.defaultTheme'));
    expect(banner.ctaVariant).toBe(constant('cookieBanner.defaultCtaVariant'));
    expect(banner.acceptType).toBe(constant('cookieBanner.defaultAcceptType'));
    expect(constant('cookieBanner.barPositions')).toContain(banner.position);
  });
});
