"""/ui search and attachment links on a real gateway, mail sent over real SMTP (issue 17, point 5).

The search box is a GET form on an identity's list with the API's `q` language: what was typed
comes back in the box escaped, every link of the result keeps it, and a query that cannot be
read is the same page as a 400 saying why (never a 500). Attachments on a message page are
download links to a /ui route behind the same session as the page, answered exactly like the
API's download route.
"""

from __future__ import annotations

import html
import re

import pytest

from gateway.ui import controller, pages
from gateway.ui.pages import Nav
from tests.conftest import RunningGateway, make_message
from tests.ui.test_pages import assert_policy, hrefs, mailed_identity
from tests.ui.test_sessions import login, mail_path, ui_client

NAV = Nav("alice@x.test", "csrf-token", admin=False, home="/ui/identities/alice@x.test")
ADDRESS = "alice@x.test"


def search_box(page: str) -> str:
    """The one search form of a list page."""
    forms: list[str] = re.findall(r"<form class=\"search\"[^>]*>.*?</form>", page, re.S)
    (form,) = forms
    return form


def subjects(page: str) -> list[str]:
    return [html.unescape(s) for s in re.findall(r'class="subject" href="[^"]+">([^<]*)<', page)]


# --- the markup (pure render functions) ---------------------------------------------------


def test_the_search_box_is_a_get_form_to_the_list_with_no_csrf_token() -> None:
    page = pages.messages_page(NAV, ADDRESS, [], next_before=None, paged=False)
    form = search_box(page)
    assert 'method="get"' in form and f'action="{pages.messages_url(ADDRESS)}"' in form
    assert re.search(r'<input id="q" name="q" type="search" value=""', form)
    assert 'name="csrf"' not in form  # a search changes nothing: it carries no session secret into a URL
    assert "Clear" not in form
    assert "No messages." in page


def test_the_typed_query_comes_back_escaped_and_every_link_keeps_it() -> None:
    typed = 'from:@x.test "a<b>" \' & -"/ui"'
    page = pages.messages_page(NAV, ADDRESS, [], next_before="m1", paged=True, q=typed)
    form = search_box(page)
    value = re.search(r'name="q" type="search" value="([^"]*)"', form)
    assert value is not None and html.unescape(value[1]) == typed
    assert "<b>" not in page and "a&lt;b&gt;" in page
    assert "No messages match this search." in page
    links = [h for h in hrefs(page) if h.startswith(mail_path(ADDRESS) + "?")]
    older = pages.messages_url(ADDRESS, q=typed, before="m1")
    assert older in links and pages.messages_url(ADDRESS, q=typed) in links  # Older, Newest (and Refresh, off)
    assert all("q=" in h for h in links if "before=" in h or "refresh=" in h)
    assert pages.messages_url(ADDRESS) in hrefs(page)  # Clear
    assert f"<title>{html.escape(typed)} · {ADDRESS} · agentmail</title>" in page


def test_an_unreadable_query_shows_its_error_in_place_of_the_list() -> None:
    page = pages.messages_page(
        NAV, ADDRESS, [], next_before=None, paged=False, q="has:<x>", query_error="has: takes <attachment>"
    )
    assert '<p class="error" role="alert">has: takes &lt;attachment&gt;</p>' in page
    assert 'value="has:&lt;x&gt;"' in search_box(page)
    assert "No messages" not in page


def test_messages_url_puts_q_first_and_encodes_it() -> None:
    assert pages.messages_url(ADDRESS, q="a b&c", before="m 1") == f"{mail_path(ADDRESS)}?q=a+b%26c&before=m+1"
    assert pages.messages_url(ADDRESS) == mail_path(ADDRESS)


# --- on a real gateway --------------------------------------------------------------------


async def test_a_malformed_query_is_a_400_page_with_the_detail_and_the_box(gateway: RunningGateway) -> None:
    address, token, _ = await mailed_identity(gateway, "alice", make_message(subject="hello"))
    async with ui_client(gateway) as client:
        await login(client, token)
        responses = {
            typed: await client.get(mail_path(address), params={"q": typed})
            for typed in ('"unterminated', "has:nothing", "(a", "bogus:op", "from:not an address", "x" * 1001)
        }
        blank = await client.get(mail_path(address), params={"q": "   "})
    for typed, response in responses.items():
        assert response.status_code == 400, (typed, response.text)
        assert_policy(response)
        page = response.text
        assert '<p class="error" role="alert">' in page, typed
        assert "hello" not in subjects(page)
        value = re.search(r'name="q" type="search" value="([^"]*)"', page)
        assert value is not None and html.unescape(value[1]) == typed.strip()
    assert "unterminated quote" in responses['"unterminated'].text
    assert "has: takes attachment, code or link" in responses["has:nothing"].text
    assert "longer than 1000 characters" in responses["x" * 1001].text
    assert blank.status_code == 200 and subjects(blank.text) == ["hello"]  # an empty box: the whole list


async def test_search_pages_keep_q_in_the_older_link(gateway: RunningGateway, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(controller, "PAGE_SIZE", 2)
    address, token, _ = await mailed_identity(
        gateway, "alice", *(make_message(subject=f"m{i}", text="hello") for i in range(3))
    )
    async with ui_client(gateway) as client:
        await login(client, token)
        first = await client.get(mail_path(address), params={"q": "hello", "refresh": "10"})
        older = re.search(r'href="([^"]+)">Older', first.text)
        assert older is not None
        second = await client.get(html.unescape(older[1]))
    assert first.status_code == 200 and second.status_code == 200
    assert html.unescape(older[1]).startswith(f"{mail_path(address)}?q=hello&before=")
    assert first.headers["refresh"].startswith(f"10; url={mail_path(address)}?q=hello&refresh=10&until=")
    assert subjects(first.text) == ["m2", "m1"] and subjects(second.text) == ["m0"]
