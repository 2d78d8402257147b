// The cookie banner's interface, a lazy chunk without React: a labelled region (a bar at
// the top or bottom, or a popup in a corner) with the text and the answer buttons. With
// accept type OPT_IN_AND_OUT, Accept and Decline are the same kind of control with the same
// weight; with OPT_IN there is Accept only. The ICON variant shows Accept as a close icon
// when it is the only control. Answering removes the banner and, when focus was inside it,
// moves focus to the page's main region.
import './banner.css';
import { normaliseBanner, type BannerSettings } from './settings';

/** The class of the banner element. */
export const BANNER_CLASS = 'cookie-banner';

/** How the banner is mounted. */
export interface BannerOptions {
  /** Mounted by a force event: takes focus at once. */
  forced: boolean;
  /** Called with the visitor's answer, before the banner is removed. */
  onAnswer(allowed: boolean): void;
}

/** Removes every banner from `doc`. */
export function unmountBanner(doc: Document): void {
  doc.querySelectorAll(`.${BANNER_CLASS}`).forEach((el) => el.remove());
}

function button(doc: Document, label: string, kind: string, s: BannerSettings, answer: () => void): HTMLButtonElement {
  const el = doc.createElement('button');
  el.type = 'button';
  el.className = `${BANNER_CLASS}__cta ${BANNER_CLASS}__cta--${kind}`;
  if (s.ctaVariant === 'ICON' && s.acceptType === 'OPT_IN') {
    el.setAttribute('aria-label', label);
    el.textContent = '×';
  } else {
    el.textContent = label;
  }
  el.addEventListener('click', answer);
  return el;
}

/** Renders the banner for `raw` settings (either naming form) at the end of `doc.body`. */
export function mountBanner(doc: Document, raw: Record<string, unknown>, options: BannerOptions): HTMLElement {
  unmountBanner(doc);
  const s = normaliseBanner(raw);
  const root = doc.createElement('section');
  const position = s.position.toLowerCase().replace('_', '-');
  root.className = [
    BANNER_CLASS,
    `${BANNER_CLASS}--${s.variant.toLowerCase()}`,
    `${BANNER_CLASS}--${position}`,
    `${BANNER_CLASS}--${s.theme.toLowerCase()}`,
    `${BANNER_CLASS}--cta-${s.ctaVariant.toLowerCase()}`,
  ].join(' ');
  root.setAttribute('aria-label', 'Cookie consent');
  root.dataset.acceptType = s.acceptType;

  const text = doc.createElement('p');
  text.className = `${BANNER_CLASS}__text`;
  text.textContent = s.text;

  const answer = (allowed: boolean) => () => {
    const hadFocus = root.contains(doc.activeElement);
    options.onAnswer(allowed);
    root.remove();
    if (hadFocus) doc.getElementById('main')?.focus();
  };
  const actions = doc.createElement('div');
  actions.className = `${BANNER_CLASS}__actions`;
  if (s.acceptType === 'OPT_IN_AND_OUT') actions.append(button(doc, s.declineLabel, 'decline', s, answer(false)));
  actions.append(button(doc, s.acceptLabel, 'accept', s, answer(true)));

  root.append(text, actions);
  doc.body.append(root);
  if (options.forced) actions.querySelector('button')?.focus();
  return root;
}
