import { describe, expect, it } from 'vitest';
import { DEFAULT_BANNER_TEXT, barPosition, normaliseBanner, popupPosition, toApiForm, toComponentForm } from './settings';

describe('cookie banner settings', () => {
  it('fall back to the defaults of spec 000 §5', () => {
    const s = normaliseBanner({ cookieBannerText: '', cookieBannerVariant: 'RIBBON', cookieBannerTheme: 'PINK', cookieBannerCtaVariant: 'x' });
    expect(s).toMatchObject({
      text: DEFAULT_BANNER_TEXT,
      acceptLabel: 'Accept',
      declineLabel: 'Decline',
      variant: 'BAR',
      theme: 'DARK',
      ctaVariant: 'ICON',
      acceptType: 'OPT_IN',
      position: 'BOTTOM',
    });
  });

  it('count an empty paragraph as empty text and drop markup', () => {
    expect(normaliseBanner({ cookieBannerText: '<p></p>' }).text).toBe(DEFAULT_BANNER_TEXT);
    expect(normaliseBanner({ cookieBannerText: '<p>We <b>bake</b> cookies.</p>' }).text).toBe('We bake cookies.');
  });

  it('keep valid values', () => {
    const s = normaliseBanner({
      cookieBannerVariant: 'POPUP',
      cookieBannerTheme: 'LIGHT',
      cookieBannerCtaVariant: 'TEXT',
      cookieBannerAcceptType: 'OPT_IN_AND_OUT',
      cookieBannerPosition: 'TOP_RIGHT',
      cookieBannerCtaText: 'Yes',
      cookieBannerOptOutCtaText: 'No',
    });
    expect(s).toMatchObject({ variant: 'POPUP', theme: 'LIGHT', ctaVariant: 'TEXT', acceptType: 'OPT_IN_AND_OUT', position: 'TOP_RIGHT' });
    expect([s.acceptLabel, s.declineLabel]).toEqual(['Yes', 'No']);
  });

  it('place a bar at TOP only for top positions, a popup in a corner (bottom-left by default)', () => {
    expect(['TOP', 'top-left', 'TOP_RIGHT'].map(barPosition)).toEqual(['TOP', 'TOP', 'TOP']);
    expect(['BOTTOM', 'BOTTOM_LEFT', 'center', ''].map(barPosition)).toEqual(['BOTTOM', 'BOTTOM', 'BOTTOM', 'BOTTOM']);
    expect(['bottom-right', 'TOP_LEFT', 'TOP', ''].map(popupPosition)).toEqual(['BOTTOM_RIGHT', 'TOP_LEFT', 'BOTTOM_LEFT', 'BOTTOM_LEFT']);
  });

  it('map the API naming form to the component form and back', () => {
    const api = { isCookieBannerEnabled: true, isRestrictiveCookiePolicyEnabled: true, isVisitorDataRestricted: true };
    const component = toComponentForm(api);
    expect(component.isAnalyticsCookiesDisabled).toBe(true);
    expect(component.isActivityLogEnabled).toBe(false);
    const back = toApiForm(component);
    expect(back.isRestrictiveCookiePolicyEnabled).toBe(true);
    expect(back.isVisitorDataRestricted).toBe(true);
    expect('isAnalyticsCookiesDisabled' in back).toBe(false);
    expect(toComponentForm({ isAnalyticsCookiesDisabled: true, isActivityLogEnabled: true })).toMatchObject({
      isAnalyticsCookiesDisabled: true,
      isActivityLogEnabled: true,
    });
    expect(normaliseBanner(api).isAnalyticsCookiesDisabled).toBe(true);
  });
});
