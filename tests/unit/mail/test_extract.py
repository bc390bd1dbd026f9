# ruff: noqa: RUF001 - multilingual cases: Cyrillic, fullwidth and dotless letters are meant
"""One-time codes and verification links: each rule of the extractor, one table per rule."""

from __future__ import annotations

from email.message import EmailMessage

import pytest

from gateway.mail.extract import MAX_TEXT_CHARS, extract, visible_text
from gateway.mail.models import Code, Link, ParsedMessage
from gateway.mail.parse import parse_message


def _message(subject: str = "", text: str = "", html: str | None = None) -> ParsedMessage:
    return ParsedMessage(
        message_id=None, from_header="", from_address=None, to=(), cc=(), subject=subject, date=None,
        headers=(), text=text, html=html,
    )  # fmt: skip


def _mime(
    subject: str = "", text: str | None = None, html: str | None = None, *, cte: str | None = None
) -> ParsedMessage:
    """The message through real MIME: EmailMessage bytes, then the gateway's parser."""
    msg = EmailMessage()
    msg["From"] = "Service <no-reply@service.test>"
    msg["To"] = "agent@agents.test"
    msg["Subject"] = subject
    if text is not None:
        msg.set_content(text, cte=cte)
        if html is not None:
            msg.add_alternative(html, subtype="html", cte=cte)
    elif html is not None:
        msg.set_content(html, subtype="html", cte=cte)
    return parse_message(msg.as_bytes())


def _codes(subject: str = "", text: str = "", html: str | None = None) -> list[str]:
    return [code.value for code in extract(_message(subject, text, html))[0]]


def _links(subject: str = "", text: str = "", html: str | None = None) -> list[str]:
    return [link.url for link in extract(_message(subject, text, html))[1]]


# --- rendering: HTML as a reader sees it ---------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param("<p>G-<span>77</span><span>4102</span></p>", "G-774102", id="inline-spans-joined"),
        pytest.param(
            "<p>Your <b>code</b> is <i>48</i><u>29</u><font>13</font></p>", "Your code is 482913", id="inline-tags"
        ),
        pytest.param(
            "<table><tr><td>4</td><td>8</td><td>2</td><td>9</td><td>1</td><td>3</td></tr></table>",
            "482913",
            id="digit-per-cell",
        ),
        pytest.param(
            '<div style="display:inline-block">7</div><div style="display:inline-block">1</div>'
            '<div style="display:inline-block">0</div><div style="display:inline-block">4</div>',
            "7104",
            id="digit-per-box",
        ),
        pytest.param("<table><tr><td>Name</td><td>Value</td></tr></table>", "Name\nValue", id="cells-separated"),
        pytest.param("<p>one</p><p>two</p><div>three<br>four</div>", "one\ntwo\nthree\nfour", id="blocks-and-br"),
        pytest.param(
            '<div style="display:none;max-height:0">preview 111111</div><p>shown</p>', "shown", id="display-none"
        ),
        pytest.param('<span style="visibility: hidden">x 222222</span><p>shown</p>', "shown", id="visibility-hidden"),
        pytest.param(
            '<div style="max-height:0px;overflow:hidden">333333</div><p>shown</p>', "shown", id="max-height-0"
        ),
        pytest.param('<span style="font-size:0">444444</span><p>shown</p>', "shown", id="font-size-0"),
        pytest.param('<span style="FONT-SIZE: 0px">444444</span><p>shown</p>', "shown", id="font-size-0px-upper"),
        pytest.param('<span style="opacity:0">555555</span><p>shown</p>', "shown", id="opacity-0"),
        pytest.param("<p hidden>666666</p><p>shown</p>", "shown", id="hidden-attribute"),
        pytest.param('<p style="font-size:0.9em">small</p>', "small", id="font-size-0-9em-visible"),
        pytest.param('<p style="opacity:0.8">faded</p>', "faded", id="opacity-0-8-visible"),
        pytest.param(
            "<html><head><title>T 777777</title><style>.a{color:#A1B2C3}</style><script>var c=888888</script>"
            "</head><body><p>shown</p><template>999999</template></body></html>",
            "shown",
            id="head-style-script-template",
        ),
        pytest.param("<p>Tom &amp; Jerry &lt;3&nbsp;!</p>", "Tom & Jerry <3 !", id="entities"),
        pytest.param("<p>&#x31;&#50;3&#52;</p>", "1234", id="numeric-entities"),
        pytest.param("<p>12\u200b34&#8203;56&zwnj;7&shy;8\ufeff</p>", "12345678", id="zero-width-dropped"),
        pytest.param("<p>  lots \n\n of\t  space  </p>", "lots of space", id="whitespace-collapsed"),
        pytest.param(
            '<p><span style="display:block">Your code</span><span style="display:block">123456</span></p>',
            "Your code\n123456",
            id="inline-styled-block",
        ),
        pytest.param("<p>a<!-- 123456 -->b</p>", "ab", id="comments-dropped"),
    ],
)
def test_visible_text(html: str, expected: str) -> None:
    assert visible_text(html) == expected


def test_deep_nesting_is_cut_not_slow() -> None:
    html = "<div>" * 20000 + "deep" + "</div>" * 20000 + "<p>Your code is 123456</p>"
    assert isinstance(visible_text(html), str)  # bounded: the depth cut keeps it fast


# --- code formats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("Your verification code is 4829.", ["4829"], id="4-digits"),
        pytest.param("Your verification code is 48291.", ["48291"], id="5-digits"),
        pytest.param("Your verification code is 482913.", ["482913"], id="6-digits"),
        pytest.param("Your security code is: 5519283", ["5519283"], id="7-digits"),
        pytest.param("Your one-time passcode: 91827364", ["91827364"], id="8-digits"),
        pytest.param("OTP: 0042 - do not share it.", ["0042"], id="leading-zeros"),
        pytest.param("Your verification code is 123 456", ["123456"], id="space-grouped"),
        pytest.param("Your verification code is 123-456", ["123456"], id="dash-grouped"),
        pytest.param("Your OTP is 123\u2013456", ["123456"], id="en-dash-grouped"),
        pytest.param("Your PIN is 1234 5678", ["12345678"], id="4-4-grouped"),
        pytest.param("Your code is 12 34 56", ["123456"], id="2-2-2-grouped"),
        pytest.param("Your verification code is 4 8 2 9 1 3", ["482913"], id="letter-spaced"),
        pytest.param("Your code is 4\u00a08\u00a02\u00a09", ["4829"], id="nbsp-spaced"),
        pytest.param("Your code: 4-8-2-9-1-3", ["482913"], id="dash-spaced"),
        pytest.param("G-774102 is your Google verification code.", ["G-774102"], id="prefixed"),
        pytest.param("Your code: OTP-482913", ["482913"], id="keyword-is-no-prefix"),
        pytest.param("Your verification code is AB3X9K", ["AB3X9K"], id="alnum"),
        pytest.param("Your recovery code: K7D2-QW9P", ["K7D2-QW9P"], id="alnum-dash"),
        pytest.param("Your confirmation code is ABC123", ["ABC123"], id="alnum-letters-then-digits"),
        pytest.param("Your code is \uff11\uff12\uff13\uff14\uff15\uff16", ["123456"], id="fullwidth-digits"),
        pytest.param("\uff43\uff4f\uff44\uff45 123456", ["123456"], id="fullwidth-keyword"),
        pytest.param("Your code is \u0661\u0662\u0663\u0664\u0665\u0666", ["123456"], id="arabic-indic-digits"),
        pytest.param("您的验证码是123456", ["123456"], id="cjk-glued"),
        pytest.param("验证码（１２３４５６）", ["123456"], id="fullwidth-parentheses"),
        pytest.param("Your code is 1 2 3 4 5 6 7 8 9", [], id="9-letter-spaced-rejected-whole"),
        pytest.param("Your code is 123-456-7", [], id="uneven-groups-rejected-whole"),
        pytest.param("code abc123456", [], id="glued-to-word"),
        pytest.param("Your verification code is 123456x", [], id="letter-glued-after"),
        pytest.param("Your code is 123456789", [], id="9-digits-too-long"),
        pytest.param("Your code is 123", [], id="3-digits-too-short"),
        pytest.param("Code\n483920\nexpires soon", ["483920"], id="code-on-next-line"),
        pytest.param("483920 is your verification code", ["483920"], id="code-before-keyword"),
        pytest.param("验证码：483920 5分钟内有效", ["483920"], id="small-number-beside"),
        pytest.param("Your confirmation code is 4lmz8c3p", ["4lmz8c3p"], id="lowercase-alnum"),
        pytest.param("Slack confirmation code: FHX-9CB", ["FHX-9CB"], id="letters-dash-alnum"),
        pytest.param("Your verification code is **482913**", ["482913"], id="markdown-bold"),
        pytest.param("Your code is 482913.Thanks, Acme", ["482913"], id="sentence-glued-after"),
        pytest.param("Enter the code on the verification page:\n482913", ["482913"], id="page-is-no-label"),
        pytest.param(
            "Here is the Steam Guard code you need to login to account agent:\n\nK7D2Q", ["K7D2Q"], id="steam"
        ),
    ],
)
def test_code_formats(text: str, expected: list[str]) -> None:
    assert _codes(text=text) == expected


# --- languages ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Your verification code is 482913. It expires in 10 minutes.", id="en"),
        pytest.param("【Example】您的验证码是 482913，五分钟内有效。", id="zh-hans"),
        pytest.param("您的驗證碼為 482913，請於 10 分鐘內輸入。", id="zh-hant"),
        pytest.param("認証コード：482913\nこのコードの有効期限は10分です。", id="ja"),
        pytest.param("[Example] 인증번호 [482913]를 입력해 주세요.", id="ko"),
        pytest.param("Ihr Bestätigungscode lautet 482913. Er ist 10 Minuten gültig.", id="de"),
        pytest.param("Votre code de vérification est 482913.", id="fr"),
        pytest.param("Tu código de verificación es 482913.", id="es"),
        pytest.param("Seu código de verificação é 482913.", id="pt"),
        pytest.param("Il tuo codice di verifica è 482913.", id="it"),
        pytest.param("Je verificatiecode is 482913.", id="nl"),
        pytest.param("Ваш код подтверждения: 482913", id="ru"),
        pytest.param("Twój kod weryfikacyjny to 482913.", id="pl"),
        pytest.param("Doğrulama kodunuz: 482913", id="tr"),
        pytest.param("Din verifieringskod är 482913.", id="sv"),
        pytest.param("Váš ověřovací kód je 482913.", id="cs"),
        pytest.param("Kode verifikasi Anda adalah 482913.", id="id"),
        pytest.param("Mã xác minh của bạn là 482913.", id="vi"),
        pytest.param("رمز التحقق الخاص بك هو 482913", id="ar"),
        pytest.param("Ο κωδικός επαλήθευσης είναι 482913.", id="el"),
        pytest.param("DOĞRULAMA KODU: 482913", id="tr-upper"),
        pytest.param("Ваш код: 482913", id="ru-plain"),
    ],
)
def test_languages(text: str) -> None:
    assert _codes(text=text) == ["482913"]


# --- not codes ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Our verification team, since 2024, keeps you safe.", id="year"),
        pytest.param("Your verification code expired on 2024-05-01.", id="iso-date"),
        pytest.param("Your code was sent on 01/05/2024.", id="slash-date"),
        pytest.param("Your code was sent on 1.5.2024.", id="dot-date"),
        pytest.param("Your code was sent on May 1, 2024.", id="month-date"),
        pytest.param("您的验证码已于2024年5月1日发送", id="cjk-date"),
        pytest.param("Your code is valid until 10:30.", id="time"),
        pytest.param("Your code expires in 1440 minutes.", id="duration"),
        pytest.param("Use your code to pay €12.99 today.", id="price-decimal"),
        pytest.param("Enter the code to confirm the $1,299 charge.", id="price-thousands"),
        pytest.param("Code for the payment of 1.299,00 € received.", id="price-european"),
        pytest.param("Your code unlocks ¥3000 in credit.", id="yen-before"),
        pytest.param("確認コード付きの3000円のクーポン", id="yen-after"),
        pytest.param("Your code: ₩50000 was charged", id="won"),
        pytest.param("Код для оплаты 1500 руб", id="rubles"),
        pytest.param("Didn't ask for a code? Call +1 415 555 0100.", id="phone-international"),
        pytest.param("Didn't ask for a code? Call (415) 555-0100.", id="phone-us"),
        pytest.param("Didn't ask for a code? Call 415-555-0100.", id="phone-dashes"),
        pytest.param("Your code order number: 12345678", id="order-number-bound"),
        pytest.param("Order #12345678 shipped with tracking code.", id="hash-number"),
        pytest.param("Invoice No. 48291 attached. Verification of payment done.", id="invoice-no"),
        pytest.param("Tracking number: 94001118 - use this code at the locker", id="tracking-number"),
        pytest.param("Flight 4821 departs at gate B. Show your booking code.", id="flight"),
        pytest.param("Your booking reference 482913 is confirmed. Verification done.", id="booking-reference"),
        pytest.param("Your account number 48291375 - verification pending", id="account-number"),
        pytest.param("Customer ID 482913 verified", id="customer-id"),
        pytest.param("482913 is your order number. Verify the delivery.", id="label-after"),
        pytest.param("Verify at https://x.test/verify?code=482913 now", id="digits-in-url"),
        pytest.param("Code sent to user482913@mail.test", id="digits-in-email"),
        pytest.param("Code sent to john.4829@mail.test", id="digits-in-email-dot"),
        pytest.param("Your verification code is \ufffd482913", id="fffd-before"),
        pytest.param("Your verification code is 482913\ufffd", id="fffd-after"),
        pytest.param("Your verification code is 48\ufffd2913", id="fffd-inside"),
        pytest.param("Use code SAVE20 for 20% off your next order", id="promo-word-code"),
        pytest.param("Use code 4829 at checkout for a discount", id="promo-numeric"),
        pytest.param("Your promo code is AB12CD", id="promo-code-phrase"),
        pytest.param("Your coupon code: 482913", id="coupon-code-phrase"),
        pytest.param("Your gutscheincode: 482913", id="promo-german"),
        pytest.param("Enter the zip code 94103", id="zip-code"),
        pytest.param("Color code #A1B2C3 for the button", id="hex-color"),
        pytest.param("code 550e8400-e29b-41d4-a716-446655440000", id="uuid"),
        pytest.param("Your code works on iPhone15 and COVID19 apps, HTML5 too", id="words-with-digits"),
        pytest.param("Your code unlocks 100MB and 1080P video", id="units-glued"),
        pytest.param("Your code is for 1920x1080 screens", id="dimension"),
        pytest.param("Order 12345678 shipped on Monday.", id="no-keyword"),
        pytest.param("Call us at 5551234 anytime.", id="no-keyword-phone"),
        pytest.param("Your code: 192.168.0.1", id="ip-address"),
        pytest.param("Code version 2.4.1 released", id="version"),
        pytest.param("Card ending in 4242 was used to verify", id="card-ending"),
        pytest.param("Verification for card ****4242", id="masked-card"),
        pytest.param("Your code. Acme Inc, 1234 Market Street, Suite 500, San Francisco, CA 94103", id="address"),
        pytest.param("Your verification code is 12345 % done", id="percent"),
        pytest.param("Your code #482913", id="hash-before"),
        pytest.param("shopping 2026 deals", id="pin-boundary-year"),
        pytest.param("Verification roadmap for 2026", id="weak-keyword-year"),
        pytest.param("Der Code ist 15 Minuten gültig. Zalando SE, Valeska-Gert-Straße 5, 10243 Berlin", id="postal-de"),
        pytest.param("Ce code est valable 10 minutes. Acme, 24 rue des Jeûneurs, 75002 Paris", id="postal-fr"),
        pytest.param("인증 코드 안내. 고객센터 1577-3754", id="phone-after-support-label"),
        pytest.param("PR #12: fix the verification code.\n4f2a9c1 Fix verification code expiry", id="commit-hash"),
        pytest.param("Write better code for ES2024 and FY2025", id="year-with-prefix"),
        pytest.param("Your exclusive code: SAVE20NOW", id="promo-words-in-code"),
    ],
)
def test_not_codes(text: str) -> None:
    assert _codes(text=text) == []


@pytest.mark.parametrize(
    ("subject", "text"),
    [
        pytest.param("Your flight confirmation - Chicago to Boston", "Confirmation code: K7DXQ2", id="pnr"),
        pytest.param("Booking confirmation", "Your confirmation code is 482913", id="booking-reference"),
        pytest.param("Your order is confirmed", "Confirmation number: 48291375", id="order-number"),
    ],
)
def test_confirmation_code_of_a_booking_or_order_is_a_reference(subject: str, text: str) -> None:
    assert _codes(subject=subject, text=text) == []


def test_confirmation_code_elsewhere_is_a_code() -> None:
    assert _codes(subject="Confirm your email", text="Your confirmation code is 482913") == ["482913"]


def test_meeting_passcode_named_right_before_is_a_code_but_meeting_numbers_are_not() -> None:
    # A guest types the passcode to join: a code. The meeting ID and dial-ins around it are not.
    text = "Meeting ID: 845 2231 9087\nPasscode: 551244\nDial in: +1 669 900 6833"
    assert _codes(subject="Zoom meeting invitation", text=text) == ["551244"]
    assert _codes(text="Meeting access code: 482913") == ["482913"]
    assert _codes(text="Join the meeting at 10:30, room 4821") == []


def test_year_only_when_nothing_better() -> None:
    assert _codes(text="Your verification PIN is 2026") == ["2026"]
    assert _codes(text="Your verification PIN is 2026. Your code is 482913") == ["482913"]


def test_fffd_never_recovered() -> None:
    # A broken byte between digits must not make either half (or the whole) a code.
    assert _codes(text="验证码：4829\ufffd13") == []
    assert _codes(text="Your code is 482913 \ufffd") == ["482913"]  # not touching: fine


# --- keywords, subject and ranking -----------------------------------------------------------


def test_subject_keyword_counts_for_a_lone_candidate() -> None:
    assert _codes(subject="Your verification code", text="Hi,\n\n482913\n\nThanks, Acme") == ["482913"]


def test_subject_keyword_not_enough_for_two_candidates() -> None:
    assert _codes(subject="Your verification code", text="Hi, 482913 or 771234?") == []


def test_heading_keyword_counts_for_a_lone_candidate_on_its_own_line() -> None:
    html = "<h1>Confirm your email</h1><p>" + "Thanks for joining us. " * 10 + "</p><p><b>482913</b></p>"
    assert _codes(subject="Welcome", html=html) == ["482913"]
    html = "<h1>Confirm your email</h1><p>" + "Thanks for joining us. " * 10 + " We are 482913 strong.</p>"
    assert _codes(subject="Welcome", html=html) == []  # not alone on its line


def test_no_keyword_anywhere_no_code() -> None:
    assert _codes(subject="Hello", text="Hi,\n\n482913\n\nThanks") == []


def test_promo_subject_does_not_count() -> None:
    assert _codes(subject="Your promo code inside", text="Hi,\n\n482913\n\nThanks") == []


@pytest.mark.parametrize(
    ("subject", "text", "expected"),
    [
        pytest.param(
            "482913 is your Acme code",
            "Hi!\n\nThanks for joining.\n" + "Lorem ipsum dolor sit amet. " * 40 + "\nCode ref 7731 in footer.",
            "482913",
            id="subject-beats-footer",
        ),
        pytest.param(
            "",
            "Order code: 5566\nVerification code: 482913",
            "482913",
            id="verification-code-beats-order-code",
        ),
        pytest.param(
            "",
            "Use code 9911 in the app. Your verification code is 482913.",
            "482913",
            id="strong-keyword-beats-plain",
        ),
        pytest.param(
            "",
            "Your code is 4829. Your verification code: 552211",
            "552211",
            id="six-digits-and-strong",
        ),
        pytest.param("", "Here is your code:\n\n  591628  \n\nIt expires soon.", "591628", id="alone-on-line"),
        pytest.param("", "Your code is 482913. Your old code 771234 has expired.", "482913", id="tie-goes-first"),
    ],
)
def test_ranking(subject: str, text: str, expected: str) -> None:
    assert _codes(subject=subject, text=text)[0] == expected


def test_html_prominence_and_letter_spacing() -> None:
    html = (
        "<p>Use the code below to sign in. Reference 7788 is for support.</p>"
        '<table><tr><td style="font-size:32px;letter-spacing:8px"><b>4 8 2 9 1 3</b></td></tr></table>'
    )
    assert _codes(html=html)[0] == "482913"


def test_repetition_collapses_and_counts() -> None:
    codes, _ = extract(_message("482913 is your code", "Your code is 482913.", "<p>Your code: <b>482913</b></p>"))
    assert [c.value for c in codes] == ["482913"]
    assert codes[0].source != "html"  # the HTML part is shown only where it gives more


def test_same_code_differently_written_collapses() -> None:
    assert _codes(text="Your code is 482 913. Again: your code is 482913.") == ["482913"]
    assert _codes(text="G-774102 is your Google verification code. Code 774102.") == ["G-774102"]


def test_context_and_source() -> None:
    codes, _ = extract(_message("Welcome", "Hello there. Your verification code is 482913. It expires in 10 minutes."))
    assert codes == (
        Code(
            value="482913",
            context="Hello there. Your verification code is 482913. It expires in 10 minutes.",
            source="text",
            reason='labelled "verification code" in the text part',
        ),
    )
    codes, _ = extract(_message("", "", "<h1>Verify</h1><p>Your code is <b>482913</b></p>"))
    assert codes[0].source == "html" and codes[0].context == "Verify Your code is 482913"


def test_context_is_bounded_and_whole_words() -> None:
    prose = "word " * 100
    codes, _ = extract(_message("", prose + "your code is 482913 " + prose))
    assert len(codes[0].context) <= 120
    assert codes[0].context.startswith("word") and codes[0].context.endswith("word")


def test_html_preferred_only_where_it_gives_more() -> None:
    msg = _message("Sign in", "View this email in an HTML client.", "<p>Your sign-in code is <b>771234</b></p>")
    codes, _ = extract(msg)
    assert [(c.value, c.source) for c in codes] == [("771234", "html")]
    msg = _message("Sign in", "Your sign-in code is 771234", "<p>Your sign-in code is <b>771234</b></p>")
    assert extract(msg)[0][0].source == "text"


def test_through_real_mime_quoted_printable_and_base64() -> None:
    html = "<p>Votre code de v\u00e9rification :</p><p>G-<span>77</span>4102</p>"
    for cte in ("quoted-printable", "base64"):
        codes, _ = extract(_mime("V\u00e9rifiez votre adresse", "Code de v\u00e9rification : G-774102", html, cte=cte))
        assert [c.value for c in codes] == ["G-774102"]


def test_text_is_capped() -> None:
    text = "x " * (MAX_TEXT_CHARS // 2) + "Your verification code is 482913"
    assert _codes(text=text) == []


# --- links ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        pytest.param(
            '<a href="https://x.test/verify?token=abc&amp;uid=42&#38;sig=zz">here</a>',
            ["https://x.test/verify?token=abc&uid=42&sig=zz"],
            id="entities-decoded",
        ),
        pytest.param(
            '<a href="https://x.test/v?a=1&copy=2">Confirm</a>',
            ["https://x.test/v?a=1&copy=2"],
            id="legacy-entity-kept",
        ),
        pytest.param(
            '<a href="  https://x.test/reset?t=1  ">Reset password</a>', ["https://x.test/reset?t=1"], id="href-trimmed"
        ),
        pytest.param(
            '<a href="https://x.test/a%2Fb%3D?sig=AbC%2B%3D">Verify</a>',
            ["https://x.test/a%2Fb%3D?sig=AbC%2B%3D"],
            id="percent-escapes-kept",
        ),
        pytest.param(
            '<a href="https://x.test/activate/abc">Open</a>', ["https://x.test/activate/abc"], id="intent-in-url"
        ),
        pytest.param(
            '<a href="https://click.mail.test/ls/click?upn=Zm9v">Verify your email</a>',
            ["https://click.mail.test/ls/click?upn=Zm9v"],
            id="tracking-redirect-labelled-verify",
        ),
        pytest.param(
            '<a href="https://github.test/users/confirm_verification/abc">Verify email address</a>',
            ["https://github.test/users/confirm_verification/abc"],
            id="github-shape",
        ),
        pytest.param(
            '<a href="https://slack.test/signin/magic/abc">Sign in to Slack</a>',
            ["https://slack.test/signin/magic/abc"],
            id="magic-link",
        ),
        pytest.param('<a href="https://x.test/e/abc">E-Mail-Adresse bestätigen</a>', ["https://x.test/e/abc"], id="de"),
        pytest.param('<a href="https://x.test/e/abc">Vérifier mon adresse</a>', ["https://x.test/e/abc"], id="fr"),
        pytest.param('<a href="https://x.test/e/abc">验证邮箱</a>', ["https://x.test/e/abc"], id="zh"),
        pytest.param('<a href="https://x.test/e/abc">メールアドレスを確認</a>', ["https://x.test/e/abc"], id="ja"),
        pytest.param('<a href="https://x.test/e/abc">Подтвердить адрес</a>', ["https://x.test/e/abc"], id="ru"),
        pytest.param(
            '<a href="https://x.test/e/abc"><img src="b.png" alt="Verify email"></a>',
            ["https://x.test/e/abc"],
            id="img-alt",
        ),
        pytest.param('<a href="https://x.test/unsubscribe?u=1&amp;verify=1">Unsubscribe</a>', [], id="unsubscribe"),
        pytest.param('<a href="https://x.test/e/abc">Verify preferences? Unsubscribe</a>', [], id="unsubscribe-text"),
        pytest.param('<a href="https://x.test/privacy">Privacy policy</a>', [], id="privacy"),
        pytest.param('<a href="https://x.test/terms">Terms</a>', [], id="terms"),
        pytest.param('<a href="https://x.test/help/verify-email">Help center</a>', [], id="help"),
        pytest.param('<a href="https://x.test/view/abc">View in browser</a>', [], id="view-in-browser"),
        pytest.param('<a href="https://facebook.com/acme">Verify us on Facebook</a>', [], id="social"),
        pytest.param('<a href="https://twitter.com/acme"><img alt="Twitter"></a>', [], id="social-image"),
        pytest.param('<a href="https://apps.apple.com/app/id1">Verify in the App Store</a>', [], id="app-store"),
        pytest.param('<a href="https://t.test/open/verify.gif">Verify</a>', [], id="pixel"),
        pytest.param('<a href="mailto:verify@x.test">Verify</a>', [], id="mailto"),
        pytest.param('<a href="javascript:verify()">Verify</a>', [], id="javascript"),
        pytest.param('<a href="ftp://x.test/verify">Verify</a>', [], id="ftp"),
        pytest.param('<a href="/verify">Verify</a>', [], id="relative"),
        pytest.param('<a href="https://x.test/pricing">Pricing</a>', [], id="no-intent"),
        pytest.param('<a href="https://x.test/order/1">View order confirmation</a>', [], id="order-confirmation"),
        pytest.param(
            '<div style="display:none"><a href="https://x.test/verify">Verify</a></div>', [], id="hidden-link"
        ),
        pytest.param('<a href="https://x.test/login">Log in</a>', [], id="login-link-in-a-newsletter"),
    ],
)
def test_html_links(html: str, expected: list[str]) -> None:
    assert _links(subject="News", html=html) == expected


def test_confirm_link_of_an_order_is_not_a_verification_link() -> None:
    html = '<a href="https://shop.test/o/1/confirm">Confirm delivery address</a>'
    assert _links(subject="Your order #48291 is confirmed", html=html) == []
    assert _links(subject="Welcome", html=html) == ["https://shop.test/o/1/confirm"]


def test_generic_link_text_is_read_with_its_sentence() -> None:
    html = '<p>To verify your email address, <a href="https://click.x.test/abc">click here</a>.</p>'
    _, links = extract(_message("Welcome", "", html))
    assert links == (
        Link(
            url="https://click.x.test/abc",
            context="To verify your email address, click here.",
            source="html",
            reason='the link says "To verify your email address, click here."',
        ),
    )
    assert _links(subject="News", html='<p>Our summer menu: <a href="https://x.test/m">click here</a></p>') == []


def test_text_link_labelled_after_it_when_nothing_precedes() -> None:
    assert _links(subject="Hi", text="https://x.test/e/abc - open it to confirm your email") == ["https://x.test/e/abc"]


def test_login_link_when_the_mail_is_about_signing_in() -> None:
    html = '<a href="https://x.test/login?t=abc">Log in to Acme</a>'
    assert _links(subject="Your sign-in link", html=html) == ["https://x.test/login?t=abc"]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Click https://x.test/verify?token=abc to continue", "https://x.test/verify?token=abc", id="plain"
        ),
        pytest.param("Open https://x.test/confirm?x=1.", "https://x.test/confirm?x=1", id="trailing-dot"),
        pytest.param("(see https://x.test/confirm?x=1)", "https://x.test/confirm?x=1", id="trailing-paren"),
        pytest.param("Verify: <https://x.test/e/abc>", "https://x.test/e/abc", id="angle-brackets"),
        pytest.param("Verify at https://x.test/wiki/Foo_(bar)", "https://x.test/wiki/Foo_(bar)", id="balanced-paren"),
        pytest.param("Confirm here: https://x.test/e/abc, thanks", "https://x.test/e/abc", id="trailing-comma"),
        pytest.param("Did you verify https://x.test/verify?", "https://x.test/verify", id="trailing-question"),
        pytest.param('Verify "https://x.test/e/abc"', "https://x.test/e/abc", id="quoted"),
        pytest.param("请点击https://x.test/verify?t=abc完成验证", "https://x.test/verify?t=abc", id="cjk-glued"),
        pytest.param(
            "Verify your email:\n\nhttps://x.test/e/abc\n", "https://x.test/e/abc", id="label-on-previous-line"
        ),
        pytest.param("Reset your password:\r\nhttps://x.test/r/abc", "https://x.test/r/abc", id="crlf"),
    ],
)
def test_text_links(text: str, expected: str) -> None:
    assert _links(subject="Hello", text=text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Unsubscribe: https://x.test/u/abc", id="unsubscribe-label"),
        pytest.param("https://x.test/pricing and https://x.test/docs", id="no-intent"),
        pytest.param("Follow us https://instagram.com/acme", id="social"),
        pytest.param("Privacy: https://x.test/p/verify", id="privacy-label"),
    ],
)
def test_text_links_never(text: str) -> None:
    assert _links(subject="Hello", text=text) == []


def test_links_rank_verify_first_dedupe_and_cut() -> None:
    """The button's link once (it is also in the text part), and not the header's "Log in": the
    mail asks to confirm an address, and a link much less sure than the best one is cut."""
    html = (
        '<a href="https://x.test/">Acme</a>'
        '<a href="https://x.test/blog">Blog</a>'
        '<a href="https://x.test/c/abc" style="background:#36f;padding:10px">Confirm your email</a>'
        "<p>Or paste: https://x.test/c/abc</p>"
        '<a href="https://x.test/account/login">Log in</a>'
        '<a href="https://x.test/unsubscribe">Unsubscribe</a>'
    )
    _, links = extract(_message("Confirm your email", "Confirm: https://x.test/c/abc", html))
    assert [link.url for link in links] == ["https://x.test/c/abc"]
    assert links[0] == Link(
        url="https://x.test/c/abc",
        context="Confirm your email",
        source="html",
        reason='the button says "Confirm your email"',
    )


def test_link_from_text_part_has_words_before_as_context() -> None:
    _, links = extract(_message("Reset", "To reset your password, open https://x.test/r/abc."))
    assert links == (
        Link(
            url="https://x.test/r/abc",
            context="To reset your password, open",
            source="text",
            reason='the text before it says "To reset your password, open"',
        ),
    )


def test_signed_url_survives_quoted_printable() -> None:
    url = "https://x.test/verify?token=AbC%3D%3D&sig=x=y&exp=1"
    html = f'<p><a href="{url.replace("&", "&amp;")}">Verify your email address</a></p>' + "<p>filler</p>" * 20
    msg = _mime("Verify your email", f"Verify: {url}", html, cte="quoted-printable")
    assert [link.url for link in extract(msg)[1]] == [url]


def test_combined_mail() -> None:
    html = (
        '<div style="display:none">Your code is inside</div>'
        "<h1>Confirm your email</h1><p>Your verification code is</p><p><b>604218</b></p>"
        '<p><a href="https://x.test/verify-email?token=zzz">Verify</a></p>'
        '<p style="font-size:12px">Acme, 1234 Market St., San Francisco, CA 94103 &middot; '
        '<a href="https://x.test/unsubscribe">Unsubscribe</a></p>'
    )
    codes, links = extract(_mime("Confirm your email", None, html))
    assert [c.value for c in codes] == ["604218"]
    assert [link.url for link in links] == ["https://x.test/verify-email?token=zzz"]


def test_newsletter_with_years_and_amounts_gives_nothing() -> None:
    html = (
        "<h1>This week in tech: 2024 trends</h1><p>Save $1,299 on laptops. Sale ends 05/31/2024.</p>"
        '<p><a href="https://x.test/blog/2024">Read the blog</a></p>'
        "<p>Acme Inc, 1600 Main Street, Springfield, IL 62704</p>"
    )
    assert extract(_message("This week: 2024 trends", "", html)) == ((), ())
