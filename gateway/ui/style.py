"""The /ui stylesheet: small, ours, inline (the policy allows no stylesheet from anywhere).

System fonts, a readable measure, light and dark schemes, and one column on a phone.
Codes and links are `user-select: all`, so one tap or click selects the whole value (there is
no copy button: that needs script); on a message page the codes are the largest text.
"""

from __future__ import annotations

from typing import Final

from gateway.mail.sanitize import BLOCKED_CLASS, LINK_CLASS

__all__ = ["MAIL_FRAME_STYLESHEET", "STYLESHEET"]

STYLESHEET: Final = """
:root {
  color-scheme: light dark;
  --bg: #f7f7f5; --fg: #1d1f21; --muted: #5f6368; --card: #ffffff; --line: #dadce0;
  --accent: #1a5fb4; --accent-fg: #ffffff; --code-bg: #eef1f5; --warn-bg: #fff4d6; --warn-line: #e5b93b;
  --bad-bg: #fde8e8; --bad-line: #d93025;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #17181a; --fg: #e8eaed; --muted: #a0a4aa; --card: #202124; --line: #3c4043;
    --accent: #8ab4f8; --accent-fg: #17181a; --code-bg: #2b2e33; --warn-bg: #3a3220; --warn-line: #a8862b;
    --bad-bg: #3c2222; --bad-line: #f28b82;
  }
}
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--fg);
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
header.top {
  display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between;
  padding: .6rem 1rem; background: var(--card); border-bottom: 1px solid var(--line);
}
header.top .brand { font-weight: 650; color: var(--fg); text-decoration: none; }
header.top nav { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; }
header.top .who { color: var(--muted); overflow-wrap: anywhere; }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.4rem; line-height: 1.3; margin: .5rem 0 1rem; overflow-wrap: anywhere; }
h2 { font-size: 1.05rem; margin: 1.5rem 0 .5rem; }
a { color: var(--accent); }
p { margin: .5rem 0; }
.muted { color: var(--muted); }
.card { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: 1rem; }
.card.narrow { max-width: 30rem; }
form.inline { display: inline; margin: 0; }
label { display: block; font-weight: 600; margin: .75rem 0 .25rem; }
input[type=password], input[type=text], input[type=search] {
  width: 100%; font: inherit; padding: .55rem .7rem; color: var(--fg); background: var(--bg);
  border: 1px solid var(--line); border-radius: .4rem;
}
button {
  font: inherit; cursor: pointer; padding: .45rem .9rem; border-radius: .4rem;
  border: 1px solid var(--accent); background: var(--accent); color: var(--accent-fg);
}
button.quiet { background: transparent; color: var(--accent); }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: end; }
.row > input { flex: 1 1 16rem; width: auto; }
.notice, .error { padding: .6rem .8rem; border-radius: .3rem; }
.notice { border-left: 4px solid var(--warn-line); background: var(--warn-bg); }
.error { border-left: 4px solid var(--bad-line); background: var(--bad-bg); }
ol.list { list-style: none; margin: 0; padding: 0; display: grid; gap: .6rem; }
ol.list > li { background: var(--card); border: 1px solid var(--line); border-radius: .6rem; padding: .7rem .9rem; }
.line { display: flex; flex-wrap: wrap; gap: .25rem 1rem; justify-content: space-between; align-items: baseline; }
.subject { font-weight: 600; overflow-wrap: anywhere; }
.from, .addr { overflow-wrap: anywhere; }
time, .size { color: var(--muted); font-size: .9rem; white-space: nowrap; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; }
code.value {
  display: inline-block; max-width: 100%; padding: .1rem .4rem; border-radius: .3rem; background: var(--code-bg);
  user-select: all; -webkit-user-select: all; overflow-wrap: anywhere; word-break: break-all;
}
ul.codes code.value {
  font-size: 2.2rem; line-height: 1.2; font-weight: 650; letter-spacing: .08em; padding: .2rem .6rem;
}
ul.values { list-style: none; margin: .4rem 0 0; padding: 0; display: grid; gap: .3rem; }
ul.values .context { color: var(--muted); font-size: .9rem; margin-left: .4rem; overflow-wrap: anywhere; }
ul.values .reason { display: block; color: var(--muted); font-size: .8rem; font-style: italic; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0 0 1rem; }
dl.meta dt { color: var(--muted); }
dl.meta dd { margin: 0; overflow-wrap: anywhere; }
nav.tabs { display: flex; flex-wrap: wrap; gap: .3rem; margin: 1.2rem 0 .8rem; border-bottom: 1px solid var(--line); }
nav.tabs a { padding: .4rem .8rem; text-decoration: none; border-radius: .4rem .4rem 0 0; }
nav.tabs a[aria-current="page"] {
  background: var(--card); border: 1px solid var(--line); border-bottom-color: var(--card);
  margin-bottom: -1px; color: var(--fg); font-weight: 600;
}
pre.body {
  white-space: pre-wrap; overflow-wrap: anywhere; margin: 0; padding: 1rem; font-size: .92rem;
  background: var(--card); border: 1px solid var(--line); border-radius: .6rem; max-width: 100%; overflow-x: auto;
}
iframe.mail {
  display: block; width: 100%; height: 75vh; min-height: 20rem; border: 1px solid var(--line);
  border-radius: .6rem; background: #ffffff;
}
table.headers { width: 100%; border-collapse: collapse; font-size: .92rem; background: var(--card); }
table.headers th, table.headers td { text-align: left; vertical-align: top; padding: .3rem .6rem;
  border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
table.headers th { white-space: nowrap; font-weight: 600; }
li.unread { border-left: 4px solid var(--accent); }
li.unread .subject { font-weight: 750; }
.badge {
  display: inline-block; font-size: .75rem; font-weight: 650; text-transform: uppercase; letter-spacing: .04em;
  padding: 0 .4rem; border-radius: .3rem; background: var(--accent); color: var(--accent-fg); vertical-align: .1em;
}
nav.refresh { display: flex; flex-wrap: wrap; gap: .3rem .6rem; align-items: center; margin: 0 0 .5rem; }
a.button {
  padding: .3rem .8rem; border-radius: .4rem; border: 1px solid var(--accent); text-decoration: none;
}
nav.refresh a[aria-current="true"] { font-weight: 700; color: var(--fg); text-decoration: none; }
details.create { margin: 1rem 0; }
details.create summary { cursor: pointer; font-weight: 600; }
input[type=number] {
  width: 100%; font: inherit; padding: .55rem .7rem; color: var(--fg); background: var(--bg);
  border: 1px solid var(--line); border-radius: .4rem;
}
label.check { display: flex; gap: .5rem; align-items: baseline; font-weight: normal; }
form.card > button, details.create button { margin-top: .75rem; }
button.danger { background: var(--bad-line); border-color: var(--bad-line); color: #ffffff; }
form.danger { margin-top: 2rem; border-color: var(--bad-line); }
form.danger h2 { margin-top: 0; }
form.delete { margin: 1.5rem 0; }
code.token { font-size: 1.1rem; padding: .3rem .6rem; }
form.search { margin: 0 0 .75rem; }
form.search label { margin-top: 0; }
form.search .row { align-items: center; }
form.search p { font-size: .9rem; }
.pager { display: flex; justify-content: space-between; gap: 1rem; margin: 1rem 0; }
@media (max-width: 40rem) {
  main { padding: .75rem; }
  h1 { font-size: 1.2rem; }
  dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: .4rem; }
  table.headers, table.headers tbody, table.headers tr, table.headers th, table.headers td { display: block; }
  table.headers th { border-bottom: 0; padding-bottom: 0; }
  iframe.mail { height: 65vh; }
}
"""
"""The whole stylesheet; a page puts it in one `<style>` element."""

MAIL_FRAME_STYLESHEET: Final = (
    """
:root { color-scheme: light; }
body { margin: 1rem; color: #1d1f21; background: #ffffff; overflow-wrap: break-word;
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
table { max-width: 100%; }
"""
    # The URL sits beside its link text, often inside a coloured button: the text's own colour,
    # a little faded, stays readable on any background the mail chose.
    f".{LINK_CLASS} {{ color: inherit; opacity: .75; font-size: .85em; font-weight: normal; word-break: break-all; }}\n"
    f".{BLOCKED_CLASS} {{ display: inline-block; padding: .1rem .4rem; border: 1px dashed #9aa0a6;"
    " border-radius: .3rem; color: #5f6368; font-size: .85em; word-break: break-all; }\n"
)
"""The sanitized mail's own frame: readable defaults and the sanitizer's two placeholder classes."""
