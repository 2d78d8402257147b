// The loader entry, linked by every published page as a module script. It never
// imports React: islands bring React with them, only where a page has one.
import { boot } from './boot';

if (document.readyState === 'loading') {
  document.addEventListener('DOMContentLoaded', () => boot(window), { once: true });
} else {
  boot(window);
}
