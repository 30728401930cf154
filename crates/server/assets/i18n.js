// The interface in English and Spanish: `CATALOGUES` (one per language, from
// assets/i18n/*.json, put before this file by the server) and the page's language, which
// the server writes into <html lang> from the `libro-lang` cookie or Accept-Language.
"use strict";

const LANG = CATALOGUES[document.documentElement.lang] ? document.documentElement.lang : "en";

/// The text of `key` in the page's language (English if it has none), with `{name}`
/// replaced by `vars.name`.
function t(key, vars) {
  const s = CATALOGUES[LANG][key] ?? CATALOGUES.en[key] ?? key;
  return s.replace(/\{(\w+)\}/g, (m, k) => (vars && vars[k] !== undefined ? String(vars[k]) : m));
}

/// A word of the rules (a seat, a piece, an end) in the page's language: `kind.word`, or the
/// word itself where the catalogue has none (a ruleset's own new word).
function word(kind, w) {
  const key = `${kind}.${String(w).toLowerCase()}`;
  return CATALOGUES[LANG][key] ?? CATALOGUES.en[key] ?? w;
}

/// A rule option's explanation in the page's language: the catalogue's `option.NAME` when its
/// English is the server's text, else the server's text (a ruleset file's own option).
function optionText(o) {
  const key = `option.${o.name}`;
  return CATALOGUES.en[key] === o.explanation ? t(key) : o.explanation;
}

/// Translates the page's fixed text: `data-i18n` (text), `data-i18n-title`,
/// `data-i18n-placeholder`.
function applyI18n(root) {
  for (const e of root.querySelectorAll("[data-i18n]")) e.textContent = t(e.dataset.i18n);
  for (const e of root.querySelectorAll("[data-i18n-title]")) e.title = t(e.dataset.i18nTitle);
  for (const e of root.querySelectorAll("[data-i18n-placeholder]")) e.placeholder = t(e.dataset.i18nPlaceholder);
}

/// The language switch in the header: remembered in a cookie (the server reads it for the
/// next page) and applied by reloading the page.
function languageSwitch() {
  const sel = document.createElement("select");
  sel.id = "lang";
  sel.title = t("lang.title");
  for (const [code, name] of [["en", "English"], ["es", "Español"]]) {
    const o = document.createElement("option");
    o.value = code;
    o.textContent = name;
    sel.append(o);
  }
  sel.value = LANG;
  sel.addEventListener("change", () => {
    document.cookie = `libro-lang=${sel.value}; path=/; max-age=31536000; SameSite=Lax`;
    location.reload();
  });
  return sel;
}

applyI18n(document);
document.title = t(document.body.dataset.titleKey || "page.title");
(document.querySelector("header nav") || document.querySelector("header")).append(languageSwitch());
