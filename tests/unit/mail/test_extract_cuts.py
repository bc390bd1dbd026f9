# ruff: noqa: RUF001 - the mails are multilingual on purpose
"""Issue 19's rules of the extractor: only what the mail asks the reader to use, each with a reason.

Codes: a code the mail calls old is never reported; a second code only when the mail labels it a
code of the first one's kind; anti-phishing phrases, opening hours and spans of years are no codes.
Links: account management is not verification; a reset link in a mail that gives a code is account
management unless the mail is about the reset; one target is one link, shown as the button writes
it; a bare page beside its tokenised link is cut; anchor text decides for opaque tracking URLs.
"""

from __future__ import annotations

import pytest

from gateway.mail.extract import extract
from gateway.mail.models import ParsedMessage


def _message(subject: str = "", text: str = "", html: str | None = None) -> ParsedMessage:
    return ParsedMessage(
        message_id=None, from_header="", from_address=None, to=(), cc=(), subject=subject, date=None,
        headers=(), text=text, html=html,
    )  # fmt: skip


def _codes(subject: str = "", text: str = "", html: str | None = None) -> list[str]:
    return [code.value for code in extract(_message(subject, text, html))[0]]


def _links(subject: str = "", text: str = "", html: str | None = None) -> list[str]:
    return [link.url for link in extract(_message(subject, text, html))[1]]


# --- codes the mail calls old ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Your previous code 118347 is no longer valid. Your new verification code is 602913.",
        "Your verification code is 602913. The code 118347 we sent earlier has expired.",
        "Dein neuer Bestätigungscode: 602913. Der alte Code 118347 ist nicht mehr gültig.",
        "Votre code de vérification : 602913. L'ancien code 118347 n'est plus valide.",
        "Tu código de verificación es 602913. El código anterior 118347 ya no es válido.",
        "Ваш код подтверждения: 602913. Предыдущий код 118347 больше не действителен.",
        "您的验证码是 602913。之前的验证码 118347 已失效。",
        "認証コード：602913（以前のコード 118347 は無効になりました）",
    ],
)
def test_a_code_the_mail_calls_old_is_never_reported(text: str) -> None:
    assert _codes("Your code", text) == ["602913"]


@pytest.mark.parametrize(
    "text",
    [
        "If the link has expired, enter code 602913 instead.",
        "Your code 602913 expires in 10 minutes.",
        "This code replaces any code we sent before. Verification code: 602913",
        "Code 602913 is valid for 10 minutes; an expired code can be requested again.",
    ],
)
def test_words_about_expiry_that_do_not_call_the_code_old_keep_it(text: str) -> None:
    assert _codes("Your code", text) == ["602913"]


# --- one code, unless the mail labels a second one ----------------------------------------


def test_other_labelled_numbers_are_not_reported_beside_the_code() -> None:
    text = (
        "Your verification code is 482913.\n"
        "Anti-phishing code: Blue7Fox\n"
        "Booking reference: 7734 1290\n"
        "Questions? Call us Mon-Fri 8am-6pm on 0800 555 0199.\n"
        "© 2006–2025 Acme Ltd, 10115 Berlin"
    )
    assert _codes("Your Acme code", text) == ["482913"]


@pytest.mark.parametrize(
    "text",
    [
        "PNR kodu: X4K7QB\nE-bilet numarası: 2352412345678",
        "Codice biglietto: 27183940 - Codice PNR: XK4Q7B",
        "Mã đơn hàng: 250314ABC7K9\nMã khách hàng: KH0048213",
        "Customer code: 48291734",
    ],
)
def test_a_code_word_written_against_a_label_names_a_reference(text: str) -> None:
    assert _codes("Your booking", text) == []


def test_a_two_letter_label_before_code_is_a_product_name() -> None:
    assert _codes("", "Your Apple ID Code is: 482913. Don't share it with anyone.") == ["482913"]


def test_a_second_code_the_mail_labels_as_the_same_kind_is_reported() -> None:
    text = "Your verification code: 482913\nIf you sign in on a second device, its verification code: 739104"
    assert _codes("Your codes", text) == ["482913", "739104"]


def test_a_second_number_near_a_weaker_word_is_cut() -> None:
    text = "Your verification code is 482913.\nSecurity tip 2: never share 739104-style numbers."
    assert _codes("Your code", text) == ["482913"]


# --- account management is not verification -----------------------------------------------


CODE_MAIL = (
    "<p>Your sign-in code is</p><p style='font-size:28px'>482913</p>"
    "<p><a href='https://acme.test/password/forgot'>Forgot your password?</a></p>"
    "<p><a href='https://acme.test/settings/security'>Security settings</a></p>"
    "<p><a href='https://acme.test/account/recovery-codes'>Manage recovery codes</a></p>"
    "<p>Wasn't you? <a href='https://acme.test/account/secure?t=9f8e7d'>Secure your account</a></p>"
    "<p>If this wasn't you, <a href='https://acme.test/password/reset?t=1a2b3c'>reset your password</a>.</p>"
)


def test_a_code_mail_reports_the_code_and_none_of_its_account_management_links() -> None:
    codes, links = extract(_message("Your Acme sign-in code", "", CODE_MAIL))
    assert [c.value for c in codes] == ["482913"]
    assert links == ()


@pytest.mark.parametrize(
    ("label", "href"),
    [
        ("Passwort vergessen?", "https://acme.test/passwort/vergessen"),
        ("Mot de passe oublié ?", "https://acme.test/mdp/oublie"),
        ("¿Olvidaste tu contraseña?", "https://acme.test/olvido"),
        ("Esqueceu sua senha?", "https://acme.test/senha"),
        ("Sicherheitseinstellungen", "https://acme.test/konto"),
        ("Nie pamiętasz hasła?", "https://acme.test/haslo"),
        ("パスワードをお忘れの方", "https://acme.test/pw"),
    ],
)
def test_account_management_links_in_every_language_are_not_verification(label: str, href: str) -> None:
    html = f"<p>Ihr Code / your code: <b>482913</b></p><p><a href='{href}'>{label}</a></p>"
    assert _links("Code", "", html) == []


def test_a_management_link_that_asks_to_verify_is_still_one() -> None:
    html = "<a href='https://acme.test/settings/email/verify?t=7c6b'>Verify your new email in account settings</a>"
    assert _links("Confirm your new email", "", html) == ["https://acme.test/settings/email/verify?t=7c6b"]


def test_a_reset_link_is_the_action_of_a_reset_mail_even_with_a_code() -> None:
    html = (
        "<p>Enter code <b>702415</b> when asked.</p>"
        "<a href='https://bank.test/restablecer?t=77aa' style='padding:12px'>Restablecer contraseña</a>"
    )
    assert _links("Restablece tu contraseña", "", html) == ["https://bank.test/restablecer?t=77aa"]


def test_a_reset_link_of_a_mail_without_a_code_qualifies() -> None:
    text = "Forgot your password? Reset it here: https://acme.test/reset?t=5e4d3c"
    assert _links("Reset your password", text) == ["https://acme.test/reset?t=5e4d3c"]


# --- one target is one link -------------------------------------------------------------


def test_one_target_in_text_and_html_with_and_without_tracking_is_one_link_as_the_button_writes_it() -> None:
    button = "https://acme.test/verify?token=abc&amp;utm_source=mail&amp;utm_campaign=signup"
    html = (
        f"<a href='{button}' style='background:#36f;padding:10px'>Verify email</a>"
        "<p>Or open https://acme.test/verify?token=abc</p>"
    )
    text = "Verify: https://ACME.test/verify?token=abc&utm_source=mail"
    links = extract(_message("Verify your email", text, html))[1]
    assert [link.url for link in links] == ["https://acme.test/verify?token=abc&utm_source=mail&utm_campaign=signup"]
    assert links[0].source == "html" and links[0].reason == 'the button says "Verify email"'


def test_two_tokens_are_two_links() -> None:
    html = (
        "<a href='https://acme.test/verify?token=abc'>Verify email</a>"
        "<a href='https://acme.test/verify?token=def'>Verify email</a>"
    )
    assert len(_links("Verify your email", "", html)) == 2


def test_the_bare_page_beside_its_tokenised_link_is_cut() -> None:
    text = (
        "Use this link to reset your password:\nhttps://git.test/password_reset/f7245c7b2cc1\n\n"
        "To get a new password reset link, visit https://git.test/password_reset"
    )
    assert _links("Please reset your password", text) == ["https://git.test/password_reset/f7245c7b2cc1"]


# --- opaque tracking links: the anchor decides ---------------------------------------------


@pytest.mark.parametrize(
    ("subject", "anchor"),
    [
        ("Bitte bestätige deine E-Mail-Adresse", "E-Mail-Adresse bestätigen"),
        ("Confirme seu e-mail", "Confirmar e-mail"),
        ("Potwierdź adres e-mail", "Potwierdź adres"),
        ("Bekräfta din e-postadress", "Bekräfta e-postadress"),
        ("Potvrďte svůj e-mail", "Potvrdit e-mail"),
        ("Підтвердіть адресу", "Підтвердити адресу"),
        ("Xác minh email của bạn", "Xác minh email"),
        ("メールアドレスの確認", "メールアドレスを確認する"),
    ],
)
def test_an_opaque_tracking_url_qualifies_by_its_anchor_in_any_language(subject: str, anchor: str) -> None:
    url = "https://click.esp.test/ls/click?upn=u001.Zm9vYmFyYmF6cXV4"
    assert _links(subject, "", f"<p>Hallo,</p><a href='{url}'>{anchor}</a>") == [url]


def test_a_sign_in_path_in_another_script_is_read_after_percent_decoding() -> None:
    url = "https://shop.test/%E3%83%AD%E3%82%B0%E3%82%A4%E3%83%B3/magic?t=42ab"  # /ログイン/
    assert _links("ログインリンク", f"こちらから {url}") == [url]


# --- reasons ----------------------------------------------------------------------------


def test_every_code_and_link_says_why() -> None:
    html = (
        "<p>Your verification code is <b>482913</b>.</p>"
        "<a href='https://acme.test/verify?t=1' style='padding:10px'>Confirm your email</a>"
    )
    codes, links = extract(_message("Welcome", "", html))
    assert [c.reason for c in codes] == ['labelled "verification code" in the mail']
    assert [link.reason for link in links] == ['the button says "Confirm your email"']
    lone = extract(_message("Your login code", "Hi,\n\n482913\n"))[0]
    assert lone[0].reason == 'the one code-like value in a mail whose subject says "login code"'


# --- rules from the held-out round -------------------------------------------------------


def test_an_approval_mail_reports_approve_and_never_deny() -> None:
    html = (
        "<p>A sign-in from a new device is waiting for you.</p>"
        "<a href='https://x.test/device/42/approve?sig=a1' style='padding:10px'>Yes, it was me</a> "
        "<a href='https://x.test/device/42/deny?sig=a1' style='padding:10px'>No, block this sign-in</a>"
    )
    assert _links("Approve sign-in from a new device", "", html) == ["https://x.test/device/42/approve?sig=a1"]


@pytest.mark.parametrize(
    ("subject", "anchor"),
    [
        ("Neues Gerät freigeben", "Gerät freigeben"),
        ("Approuvez cet appareil", "Approuver"),
        ("Godkend enhed", "Godkend"),
    ],
)
def test_approving_a_device_in_other_languages_is_the_action(subject: str, anchor: str) -> None:
    url = "https://email.x.test/c/eJwZgloAi0f3IWKFWGY16G9n"
    assert _links(subject, "", f"<a href='{url}'>{anchor}</a><a href='https://x.test/help'>Hilfe</a>") == [url]


def test_a_word_that_only_contains_an_approve_stem_is_no_action() -> None:
    assert _links("Frete grátis", "Aproveitar ( https://shop.test/hotsite/frete-gratis?chave=1 )") == []


def test_a_german_tan_is_a_code() -> None:
    text = "Betrag: 1.250,00 €\nAuftragsnummer: 2025031488120\n\nIhre TAN lautet: 739 204\n"
    assert _codes("Ihre TAN für die Überweisung", text) == ["739204"]


def test_a_code_word_followed_by_a_colon_names_what_follows_it() -> None:
    assert _codes("Bank", "參考編號:HB-4821 一次性密碼:719402 將於 100 秒後失效") == ["719402"]
    assert _codes("Bank", "Ref INREG-4820193 Codul de autentificare este: 57302918") == ["57302918"]


def test_a_year_is_a_code_only_after_its_code_word() -> None:
    assert _codes("Квитанция", "ЕПД за февраль 2025\nКод плательщика: 5820194733") == []
    assert _codes("Your PIN", "PIN: 2024") == ["2024"]


def test_a_postcode_closing_an_address_line_is_no_code() -> None:
    text = "Código de envío: PQ4F6P0712345670128001X\nOficina de destino: Madrid Sucursal 21, 28014\nHorario: 08:30"
    assert _codes("Tu envío está en camino", text) == []


def test_a_sign_in_link_counts_in_a_code_mail_not_in_a_newsletter_about_codes() -> None:
    link = "<a href='https://ct.x.test/ls/click?upn=u001.abc'>Sign in to read</a>"
    assert _links("Why your 6-digit codes are getting phished", "", "<p>This week...</p>" + link) == []
    assert _links("Your Acme code", "", "<p>Your code: 482913</p>" + link) == [
        "https://ct.x.test/ls/click?upn=u001.abc"
    ]


# --- found in review: rules that must not lose real codes and links ------------------------


@pytest.mark.parametrize(
    "text",
    [
        "Your verification code is:\n\n602913\n\nCode expired? Click here to get a new one.",
        "Tu código de verificación:\n\n602913\n\n¿Código caducado? Solicita uno nuevo.",
        "Code: 602913 (invalid after 10 minutes)",
        "Your code is 602913 - expired codes can't be used.",
        "您的验证码为602913，失效时间为5分钟。",
        "Dieser Code 602913 ersetzt alle vorherigen Codes.",
        "Compared to the prior one, your code is 602913",
        "Jangan menunggu lama, kode OTP 602913 berlaku 5 menit.",
        "hello old, verification code: 602913",
    ],
)
def test_words_about_old_codes_elsewhere_in_the_mail_keep_the_real_code(text: str) -> None:
    assert _codes("Your code", text)[:1] == ["602913"]


@pytest.mark.parametrize(
    "text",
    [
        "602913 is your Instagram code: don't share it.",
        "Use 602913 as your login code: it is valid for 5 minutes.",
        "602913 是您的验证码：5分钟内有效。",
        "602913 ist Ihr Bestätigungscode: gültig für 10 Minuten.",
    ],
)
def test_a_code_word_with_a_colon_still_names_the_code_before_it_when_no_value_follows(text: str) -> None:
    assert _codes("Hello", text) == ["602913"]


@pytest.mark.parametrize(
    "text",
    [
        "Your transaction code is 602913.",
        "Your Acme account code: 602913",
        "Phone code: 602913",
        "Ihr Konto-Code: 602913",
        "Confirm your account: code 602913",
    ],
)
def test_a_code_word_next_to_a_word_that_is_no_reference_stays_a_code(text: str) -> None:
    assert _codes("Hello", text) == ["602913"]


def test_a_person_named_tan_is_no_code_word() -> None:
    assert _codes("Meeting", "Hi Tan, see you at 1530 on Monday. Room 4821.") == []


def test_the_colon_rule_is_linear_on_a_long_run_of_letters() -> None:
    """Once a regular expression that split a run of letters every possible way (cubic time)."""
    for text in ("Your 602913 code " + "a" * 200_000, "您的602913验证码" + "请" * 200_000):
        assert _codes("Hi", text) == ["602913"]


@pytest.mark.parametrize(
    ("subject", "html"),
    [
        ("Reset your password", "<a href='https://x.test/password/reset/7f3a9c'>Change your password</a>"),
        ("Reset your password", "<a href='https://x.test/forgot_password/reset/7f3a9c'>Set a new password</a>"),
        ("Forgot your password?", "<p>Code: 602913</p><a href='https://x.test/reset?t=7f3a9c'>Reset password</a>"),
        ("Password recovery", "<p>Code: 602913</p><a href='https://x.test/reset?t=7f3a9c'>Reset password</a>"),
        ("New sign-in", "<a href='https://x.test/account/devices/confirm?t=7f3a9c'>Confirm device</a>"),
        ("Cuenta bloqueada", "<a href='https://x.test/desbloquear?t=7f3a9c'>Verificar y desbloquear mi cuenta</a>"),
        ("Compte bloqué", "<a href='https://x.test/debloquer?t=7f3a9c'>Vérifier et débloquer mon compte</a>"),
    ],
)
def test_reset_confirm_and_unlock_links_are_kept(subject: str, html: str) -> None:
    assert len(_links(subject, "", html)) == 1


@pytest.mark.parametrize(
    "text",
    ["here is your 2FA code, 602913\n", "5分钟内有效的验证码，602913\n", "Login attempt from Windows 11, 602913\n"],
)
def test_a_code_closing_a_line_after_a_comma_is_no_postcode(text: str) -> None:
    assert _codes("Your code", text) == ["602913"]


def test_a_bookings_own_code_is_its_reference() -> None:
    assert _codes("Confirmación de su cita - Código 48213", "Le esperamos el lunes a las 10:30.") == []


def test_a_link_to_download_something_is_no_verification() -> None:
    html = (
        "<p>Registration confirmed.</p>"
        "<a href='https://x.test/enrollment-verification'>Download your verification letter</a>"
    )
    assert _links("Registration confirmed", "", html) == []
    confirm = "<a href='https://x.test/emailConfirm?id=1'>per confermare il nuovo indirizzo email clicca qui</a>"
    assert _links("Conferma indirizzo email", "", confirm) == ["https://x.test/emailConfirm?id=1"]  # "indir" is a word


def test_a_target_is_shown_as_its_button_writes_it_even_when_the_button_says_nothing() -> None:
    html = "<a href='https://x.test/verify?t=1&amp;utm_source=m' style='padding:10px'>Continue</a>"
    text = "Verify your email: https://x.test/verify?t=1"
    assert _links("Verify your email", text, html) == ["https://x.test/verify?t=1&utm_source=m"]


# --- rules from the fourth held-out run ------------------------------------------------------


def test_the_end_of_a_masked_card_number_is_no_code() -> None:
    assert _codes("ご利用代金確定のお知らせ", "カード番号：****-****-****-1234\nお支払金額：48,302円") == []


def test_confirming_attendance_or_checking_a_statement_is_no_verification() -> None:
    html = "<a href='https://x.test/jornada/inscripcion?t=7f3a9c1b2d4e5f6a7b8c'>Confirmar asistencia</a>"
    assert _links("Invitación: Jornada de digitalización", "", html) == []
    text = "ご利用明細はこちらからご確認ください。\nhttps://card.test/memberservice/meisai"
    assert _links("ご利用代金確定のお知らせ", text) == []


def test_the_only_link_with_a_token_of_a_mail_asking_to_confirm_is_its_action() -> None:
    url = "https://www.jalan.test/uw/uww1701.do?key=33b907125bf279ea3abf37df8d2c86e0"
    text = f"メールアドレスの変更を受け付けました。\n下記URLにアクセスして、変更を完了してください。\n\n{url}\n\nヘルプ\nhttps://www.jalan.test/help/"
    links = extract(_message("【じゃらんnet】メールアドレス変更のご確認", text))[1]
    assert [link.url for link in links] == [url]
    assert links[0].reason == 'the only link with a token in a mail whose subject says "確認"'


@pytest.mark.parametrize(
    "subject", ["Ordrebekræftelse 7720194831", "Anmeldebestätigung: Webinar Datenschutz", "Your weekly news"]
)
def test_no_link_is_guessed_in_a_mail_that_confirms_an_order_or_asks_nothing(subject: str) -> None:
    text = "Thanks!\nhttps://click.shop.test/?qs=42b7f881cd77c93d24d3a09ac239d2ec"
    assert _links(subject, text) == []


def test_no_link_is_guessed_among_several_with_tokens() -> None:
    text = "https://x.test/a?k=33b907125bf279ea3abf37df\nhttps://x.test/b?k=77c93d24d3a09ac239d2ec84"
    assert _links("Please confirm your email", text) == []


def test_a_quoted_message_at_the_very_start_of_the_text_is_seen() -> None:
    text = '"Chase: Your verification code is 123456. Never share it." That is how the scam reads.'
    assert _codes("Security notice", text) == []
