// The page's language: English or Simplified Chinese, chosen from the browser's languages (any
// zh* gives zh-CN) unless the player picked one with the header's switch (kept in this browser).
// Every string the page shows comes from a catalog, i18n/<language>.json, through t('key', {...})
// (i18next, vendored: vendor/README.md); plural forms use the browser's Intl.PluralRules.
//
// Key conventions that server/tests/i18n.rs checks: keys are flat ("lobby.rooms"); a literal
// t('key') or t("key") uses a key; static HTML names its keys in data-i18n (text),
// data-i18n-placeholder, data-i18n-aria-label and data-i18n-title; keys built at run time are
// t(`prefix.${...}`) with a prefix listed in that test's DYNAMIC_PREFIXES. Catalog values are text,
// never HTML: callers insert them with textContent (dom.js's h), as they do names and chat.
import i18next from './vendor/i18next.js';

/** The languages the page speaks, by BCP 47 tag. */
export const LANGUAGES = ['en', 'zh-CN'];
const LANG_KEY = 'skirmish.lang';

/** The player's choice if any, else zh-CN when the browser prefers any Chinese, else en. */
function chosen() {
  const stored = localStorage.getItem(LANG_KEY);
  if (LANGUAGES.includes(stored)) return stored;
  const prefs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || 'en'];
  const first = prefs.find((l) => /^(zh|en)\b/i.test(l)) || 'en';
  return /^zh\b/i.test(first) ? 'zh-CN' : 'en';
}

/** The page's language: 'en' or 'zh-CN'. */
export const lang = chosen();

async function catalog(l) {
  const response = await fetch(`/i18n/${l}.json`);
  return response.ok ? response.json() : {};
}

const resources = {};
for (const l of new Set(['en', lang])) resources[l] = { translation: await catalog(l) };

await i18next.init({
  lng: lang,
  fallbackLng: 'en',
  supportedLngs: LANGUAGES,
  resources,
  keySeparator: false,
  nsSeparator: false,
  returnNull: false,
  // Values are inserted as text (textContent), never as HTML; and a value (a name, a chat line)
  // is never read as a nested key or template.
  interpolation: { escapeValue: false, skipOnVariables: true },
});
document.documentElement.lang = lang;

/** The catalog's text for `key`, with `{{name}}` placeholders filled from `values`. */
export function t(key, values) {
  return i18next.t(key, values);
}

/** Whether the catalogs have `key`. */
export function has(key) {
  return i18next.exists(key);
}

/** Remembers `l` as the player's language and reloads the page in it. */
export function setLanguage(l) {
  if (!LANGUAGES.includes(l) || l === lang) return;
  localStorage.setItem(LANG_KEY, l);
  location.reload();
}

/** Fills the static page's data-i18n* attributes (the HTML files' header, title and placeholders). */
export function translateStatic(root = document) {
  root.querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
  root.querySelectorAll('[data-i18n-placeholder]').forEach((el) => el.setAttribute('placeholder', t(el.dataset.i18nPlaceholder)));
  root.querySelectorAll('[data-i18n-aria-label]').forEach((el) => el.setAttribute('aria-label', t(el.dataset.i18nAriaLabel)));
  root.querySelectorAll('[data-i18n-title]').forEach((el) => el.setAttribute('title', t(el.dataset.i18nTitle)));
}

/**
 * The header's language switch: a button naming the other language in that language (中文 on an
 * English page, English on a Chinese one).
 */
export function languageSwitch() {
  const other = lang === 'zh-CN' ? 'en' : 'zh-CN';
  const button = document.createElement('button');
  button.type = 'button';
  button.id = 'lang-switch';
  button.className = 'lang-switch';
  button.lang = other;
  button.dataset.lang = other;
  button.textContent = other === 'zh-CN' ? '中文' : 'English';
  button.setAttribute('aria-label', t('header.switch_label'));
  button.addEventListener('click', () => setLanguage(other));
  return button;
}

/**
 * Adds the language switch to the page's header (`header.top`), once: before the rules link, on
 * the brand's line, so that a phone's header keeps its height.
 */
export function mountSwitch() {
  const header = document.querySelector('header.top');
  if (!header || document.getElementById('lang-switch')) return;
  header.insertBefore(languageSwitch(), header.querySelector('.top-link'));
}

/**
 * A server refusal in the page's language: the sentence for its stable `code`
 * (`error.<code>` in the catalogs), else the server's own English message, else the code.
 */
export function refusal(err) {
  const code = err && err.code;
  if (code && has(`error.${code}`)) return t(`error.${code}`);
  return err && err.message ? err.message : String(code || err);
}

/** The rules page in the page's language, at a section: `/rules?lang=zh-CN#2-五子棋`. */
export function rulesHref(section) {
  const anchor = section ? `#${t(`rules.anchor.${section}`)}` : '';
  return lang === 'en' ? `/rules${anchor}` : `/rules?lang=${lang}${anchor}`;
}
