/**
 * The dashboard's two static assets, served by the app itself (no CDN, works offline): the style
 * sheet (system fonts, readable on a phone, visible focus, high contrast) and the few lines of
 * script behind the copy buttons (everything else works without JavaScript).
 * @module
 */

/** `/dashboard/style.css`. */
export const STYLE_CSS = `
:root { color-scheme: light; --fg: #1a1a1a; --muted: #555; --line: #d0d0d0; --bg: #fff; --accent: #0b57d0;
  --soft: #f3f5f8; --ok: #136c2e; --bad: #a4141c; font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--fg); background: var(--bg); line-height: 1.5; font-size: 1rem; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, summary:focus-visible {
  outline: 3px solid #f0b400; outline-offset: 2px; }
.skip { position: absolute; left: -999px; top: 0; background: #fff; padding: .5rem; }
.skip:focus { left: .5rem; z-index: 10; }
header.top { display: flex; flex-wrap: wrap; gap: .5rem 1.5rem; align-items: center; padding: .75rem 1rem;
  border-bottom: 1px solid var(--line); background: var(--soft); }
header.top .brand { font-weight: 700; text-decoration: none; color: var(--fg); }
header.top nav ul { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; margin: 0; padding: 0; }
header.top form { margin-left: auto; }
main { max-width: 64rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.5rem 0 .5rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; }
.card { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem; background: var(--soft); }
.card .big { font-size: 1.6rem; font-weight: 700; }
.card .label { color: var(--muted); font-size: .9rem; }
table { width: 100%; border-collapse: collapse; }
th, td { text-align: left; padding: .4rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
.scroll { overflow-x: auto; }
form.stack { display: grid; gap: .6rem; max-width: 28rem; }
label { font-weight: 600; }
input[type=text], input[type=email], input[type=password], input[type=number], input[type=search], select {
  font: inherit; padding: .45rem .55rem; border: 1px solid #767676; border-radius: .35rem; width: 100%; }
fieldset { border: 1px solid var(--line); border-radius: .35rem; }
button { font: inherit; padding: .45rem .9rem; border-radius: .35rem; border: 1px solid var(--accent);
  background: var(--accent); color: #fff; cursor: pointer; }
button.secondary { background: #fff; color: var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: var(--bad); }
.inline { display: inline; }
.notice { border-left: 4px solid var(--accent); background: var(--soft); padding: .6rem .8rem; margin: 1rem 0; }
.notice.error { border-color: var(--bad); }
.notice.ok { border-color: var(--ok); }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9rem; }
pre { background: var(--soft); padding: .75rem; overflow-x: auto; border-radius: .35rem; white-space: pre; }
.secret { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.secret code { background: #fff8d6; padding: .35rem .5rem; border: 1px solid #e0c96a; word-break: break-all; }
.muted { color: var(--muted); }
progress { width: 8rem; height: 1rem; }
.chart svg { width: 100%; height: auto; max-height: 18rem; }
.chart .plot { overflow-x: auto; }
.legend { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: .25rem 0; }
.legend span.swatch { display: inline-block; width: .9rem; height: .9rem; margin-right: .3rem; vertical-align: -.1rem; }
.state-closed { color: var(--ok); } .state-open { color: var(--bad); } .state-half_open { color: #7a5200; }
@media (max-width: 40rem) { main { padding: .75rem; } h1 { font-size: 1.3rem; } header.top form { margin-left: 0; }
  .chart svg { min-width: 34rem; } }
`;

/** `/dashboard/copy.js`: a copy button copies the text of the element its `data-copy` names. */
export const COPY_JS = `
document.addEventListener('click', function (event) {
  var button = event.target.closest && event.target.closest('button[data-copy]');
  if (!button) return;
  var source = document.getElementById(button.getAttribute('data-copy'));
  if (!source || !navigator.clipboard) return;
  navigator.clipboard.writeText(source.textContent.trim()).then(function () {
    button.textContent = 'Copied';
  });
});
for (var b of document.querySelectorAll('button[data-copy]')) b.hidden = false;
`;
