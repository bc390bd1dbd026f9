"""Generated 20-30 KB HTML verification mails, shaped like the transactional mail of big senders.

The corpus holds no HTML part over 5 KB, so this set is written here (not in ``corpus/``: these
mails are timing material, not expectations). One template copies the public shape of the
account, security and sign-up mails of big senders: nested tables with inline styles on every
cell, a ``<style>`` block in the head and another in the body, Outlook conditional comments
(``<!--[if mso]>``, a VML button), a hidden preheader, a logo, a code (in large letter-spaced
type, or one digit per cell) and/or a verify button with its "button not working?" raw URL,
promotion rows, and a long footer with legal text, addresses, unsubscribe, privacy, app-store
and social links, and a tracking pixel. It is filled for six invented brands x four variants
(English, German, French, Spanish; code, link or both; with or without a text part), padded with
footer and promotion rows until the HTML part is 20-30 KB. Deterministic; each mail carries the
code or link it plants, and the bench checks the extractor finds it.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime
from typing import NamedTuple

__all__ = ["Planted", "verification_mails"]

MIN_HTML, MAX_HTML = 20_000, 30_000


class Planted(NamedTuple):
    """One generated mail and what it plants: the code and/or the verification link."""

    raw: bytes
    code: str | None
    link: str | None


class _Brand(NamedTuple):
    name: str
    domain: str
    color: str


_BRANDS = (
    _Brand("Nimbus", "nimbus.example", "#1a73e8"),
    _Brand("Contoso", "contoso.example", "#0067b8"),
    _Brand("Shopwell", "shopwell.example", "#ff9900"),
    _Brand("Forgehub", "forgehub.example", "#24292f"),
    _Brand("Chatterly", "chatterly.example", "#4a154b"),
    _Brand("Paystream", "paystream.example", "#635bff"),
)

# Per language: subject, preheader, greeting, intro (code), intro (link), code label, button,
# expiry, ignore line, footer why, legal.
_WORDS: dict[str, dict[str, str]] = {
    "en": {
        "subject_code": "Your {brand} verification code",
        "subject_link": "Verify your email address for {brand}",
        "pre": "Use this code to finish signing in. It expires in 10 minutes.",
        "hello": "Hi Jane,",
        "intro_code": "We received a request to sign in to your {brand} account. Enter the verification code "
        "below to continue. For your security, do not share this code with anyone.",
        "intro_link": "Thanks for creating a {brand} account. Please confirm that this is your email address "
        "by clicking the button below.",
        "label": "Your verification code",
        "button": "Verify email address",
        "expiry": "This code expires in 10 minutes.",
        "fallback": "Button not working? Copy and paste this link into your browser:",
        "ignore": "If you didn't request this, you can safely ignore this email. Someone may have typed your "
        "email address by mistake.",
        "why": "You received this email because a sign-in or an account change was requested for your {brand} "
        "account. This is a mandatory service message about your account.",
        "legal": "{brand} Inc., 1600 Example Parkway, Mountain View, CA 94043, USA. {brand} and the {brand} logo "
        "are trademarks of {brand} Inc. All other trademarks are the property of their respective owners. "
        "Prices and availability are subject to change without notice. Offers may vary by region. This "
        "message was sent from a notification-only address that cannot accept incoming email. Please do not "
        "reply to this message. Read our Privacy Policy to learn how we collect, use and protect your data, "
        "and our Terms of Service for the rules that apply to your use of our products.",
        "promo": "Discover what's new this month: faster sync across your devices, shared folders with "
        "granular permissions, and a redesigned mobile app. Learn more in our release notes.",
        "unsubscribe": "Unsubscribe",
        "privacy": "Privacy Policy",
        "terms": "Terms of Service",
        "help": "Help Center",
        "prefs": "Email preferences",
    },
    "de": {
        "subject_code": "Ihr {brand}-Bestätigungscode",
        "subject_link": "Bitte bestätigen Sie Ihre E-Mail-Adresse für {brand}",
        "pre": "Verwenden Sie diesen Code, um die Anmeldung abzuschließen. Er ist 10 Minuten gültig.",
        "hello": "Hallo Max,",
        "intro_code": "Wir haben eine Anfrage zur Anmeldung bei Ihrem {brand}-Konto erhalten. Geben Sie den "
        "folgenden Bestätigungscode ein, um fortzufahren. Geben Sie diesen Code niemals weiter.",
        "intro_link": "Vielen Dank für Ihre Registrierung bei {brand}. Bitte bestätigen Sie Ihre E-Mail-Adresse, "
        "indem Sie auf die Schaltfläche unten klicken.",
        "label": "Ihr Bestätigungscode",
        "button": "E-Mail-Adresse bestätigen",
        "expiry": "Dieser Code ist 10 Minuten gültig.",
        "fallback": "Die Schaltfläche funktioniert nicht? Kopieren Sie diesen Link in Ihren Browser:",
        "ignore": "Falls Sie dies nicht angefordert haben, können Sie diese E-Mail ignorieren.",
        "why": "Sie erhalten diese E-Mail, weil für Ihr {brand}-Konto eine Anmeldung oder Kontoänderung "
        "angefordert wurde. Dies ist eine verpflichtende Servicemitteilung.",
        "legal": "{brand} Germany GmbH, Beispielstraße 12, 10115 Berlin, Deutschland. Geschäftsführer: Erika "
        "Musterfrau. Registergericht: Amtsgericht Charlottenburg. Alle Marken sind Eigentum ihrer jeweiligen "
        "Inhaber. Diese Nachricht wurde von einer Adresse gesendet, die keine eingehenden E-Mails annimmt. "
        "Bitte antworten Sie nicht auf diese Nachricht. In unserer Datenschutzerklärung erfahren Sie, wie wir "
        "Ihre Daten erheben, verwenden und schützen, und in unseren Nutzungsbedingungen, welche Regeln gelten.",
        "promo": "Neu in diesem Monat: schnellere Synchronisierung auf allen Geräten, geteilte Ordner mit "
        "feinen Berechtigungen und eine neu gestaltete App. Mehr dazu in unseren Versionshinweisen.",
        "unsubscribe": "Abmelden",
        "privacy": "Datenschutz",
        "terms": "Nutzungsbedingungen",
        "help": "Hilfe",
        "prefs": "E-Mail-Einstellungen",
    },
    "fr": {
        "subject_code": "Votre code de vérification {brand}",
        "subject_link": "Confirmez votre adresse e-mail pour {brand}",
        "pre": "Utilisez ce code pour terminer la connexion. Il expire dans 10 minutes.",
        "hello": "Bonjour Jeanne,",
        "intro_code": "Nous avons reçu une demande de connexion à votre compte {brand}. Saisissez le code de "
        "vérification ci-dessous pour continuer. Ne communiquez jamais ce code.",
        "intro_link": "Merci d'avoir créé un compte {brand}. Veuillez confirmer votre adresse e-mail en cliquant "
        "sur le bouton ci-dessous.",
        "label": "Votre code de vérification",
        "button": "Confirmer mon adresse e-mail",
        "expiry": "Ce code expire dans 10 minutes.",
        "fallback": "Le bouton ne fonctionne pas ? Copiez ce lien dans votre navigateur :",
        "ignore": "Si vous n'êtes pas à l'origine de cette demande, vous pouvez ignorer cet e-mail.",
        "why": "Vous recevez cet e-mail car une connexion ou une modification a été demandée pour votre compte "
        "{brand}. Il s'agit d'un message de service obligatoire.",
        "legal": "{brand} France SAS, 8 rue de l'Exemple, 75002 Paris, France. RCS Paris 000 000 000. Toutes les "
        "marques citées appartiennent à leurs propriétaires respectifs. Ce message a été envoyé depuis une "
        "adresse qui n'accepte pas les réponses. Consultez notre Politique de confidentialité pour savoir "
        "comment nous collectons, utilisons et protégeons vos données, ainsi que nos Conditions d'utilisation.",
        "promo": "Nouveau ce mois-ci : une synchronisation plus rapide sur tous vos appareils, des dossiers "
        "partagés aux droits précis et une application repensée. En savoir plus dans nos notes de version.",
        "unsubscribe": "Se désabonner",
        "privacy": "Confidentialité",
        "terms": "Conditions d'utilisation",
        "help": "Aide",
        "prefs": "Préférences e-mail",
    },
    "es": {
        "subject_code": "Tu código de verificación de {brand}",
        "subject_link": "Verifica tu dirección de correo para {brand}",
        "pre": "Usa este código para terminar de iniciar sesión. Caduca en 10 minutos.",
        "hello": "Hola, Juana:",
        "intro_code": "Recibimos una solicitud para iniciar sesión en tu cuenta de {brand}. Introduce el código "
        "de verificación a continuación para continuar. No compartas este código con nadie.",
        "intro_link": "Gracias por crear una cuenta de {brand}. Confirma tu dirección de correo electrónico "
        "haciendo clic en el botón de abajo.",
        "label": "Tu código de verificación",
        "button": "Verificar correo electrónico",
        "expiry": "Este código caduca en 10 minutos.",
        "fallback": "¿El botón no funciona? Copia y pega este enlace en tu navegador:",
        "ignore": "Si no solicitaste esto, puedes ignorar este correo.",
        "why": "Recibes este correo porque se solicitó un inicio de sesión o un cambio en tu cuenta de {brand}. "
        "Es un mensaje de servicio obligatorio.",
        "legal": "{brand} Iberia S.L., Calle Ejemplo 5, 28001 Madrid, España. Todas las marcas mencionadas "
        "pertenecen a sus respectivos propietarios. Este mensaje se envió desde una dirección que no admite "
        "respuestas. Consulta nuestra Política de privacidad para saber cómo recopilamos, usamos y protegemos "
        "tus datos, y nuestras Condiciones de servicio para conocer las reglas que se aplican.",
        "promo": "Novedades de este mes: sincronización más rápida en todos tus dispositivos, carpetas "
        "compartidas con permisos detallados y una aplicación rediseñada. Más información en las notas.",
        "unsubscribe": "Cancelar suscripción",
        "privacy": "Privacidad",
        "terms": "Condiciones",
        "help": "Ayuda",
        "prefs": "Preferencias de correo",
    },
}

_HEAD_CSS = """
    body { margin:0 !important; padding:0 !important; -webkit-text-size-adjust:100% !important; }
    table, td { border-collapse:collapse; mso-table-lspace:0pt; mso-table-rspace:0pt; }
    img { border:0; height:auto; line-height:100%; outline:none; text-decoration:none; -ms-interpolation-mode:bicubic; }
    a[x-apple-data-detectors] { color:inherit !important; text-decoration:none !important;
      font-size:inherit !important; }
    #MessageViewBody a { color:inherit; text-decoration:none; font-size:inherit; font-family:inherit; }
    .ExternalClass, .ExternalClass p, .ExternalClass span, .ExternalClass td { line-height:100%; }
    @media only screen and (max-width:620px) {
      .wrapper { width:100% !important; max-width:100% !important; }
      .mobile-pad { padding-left:16px !important; padding-right:16px !important; }
      .mobile-hide { display:none !important; max-height:0 !important; overflow:hidden !important; }
      .stack-column, .stack-column-center { display:block !important; width:100% !important; direction:ltr !important; }
      .code-box { font-size:28px !important; letter-spacing:6px !important; }
      h1 { font-size:22px !important; line-height:28px !important; }
    }
    @media (prefers-color-scheme: dark) {
      .dark-bg { background-color:#121212 !important; }
      .dark-text { color:#e8eaed !important; }
    }
"""

_FONT = "font-family:Roboto,'Helvetica Neue',Helvetica,Arial,sans-serif"


def _td(content: str, style: str = "", attrs: str = "") -> str:
    return f'<td {attrs} style="{_FONT};font-size:14px;line-height:22px;color:#3c4043;{style}">{content}</td>'


def _row(content: str, style: str = "", attrs: str = "") -> str:
    return f"<tr>\n  {_td(content, style, attrs)}\n</tr>\n"


def _table(rows: str, width: str = "100%", style: str = "") -> str:
    return (
        f'<table role="presentation" cellpadding="0" cellspacing="0" border="0" width="{width}" '
        f'style="border-collapse:collapse;{style}">\n{rows}</table>\n'
    )


def _preheader(text: str) -> str:
    filler = "&#847; &zwnj; &nbsp; " * 40
    return (
        '<div style="display:none;font-size:1px;color:#ffffff;line-height:1px;max-height:0px;max-width:0px;'
        f'opacity:0;overflow:hidden;mso-hide:all;font-family:sans-serif;">{text}{filler}</div>\n'
    )


def _logo(brand: _Brand, layout: int) -> str:
    img = (
        f'<img src="https://static.{brand.domain}/email/logo-{layout}@2x.png" width="120" height="32" '
        f'alt="{brand.name}" style="display:block;border:0;outline:none;width:120px;height:auto;">'
    )
    link = f'<a href="https://www.{brand.domain}/?utm_source=email&amp;utm_medium=transactional" target="_blank">'
    return _row(f"{link}{img}</a>", "padding:32px 40px 16px 40px;", 'align="left" class="mobile-pad"')


def _code_block(code: str, label: str, expiry: str, brand: _Brand, layout: int) -> str:
    if layout % 2:
        style = "font-size:32px;letter-spacing:8px;font-weight:700;color:#202124;"
        shown = f'<span class="code-box" style="{style}">{code}</span>'
    else:
        cells = "".join(
            f'<td style="{_FONT};font-size:28px;font-weight:700;padding:8px 10px;border:1px solid #dadce0;'
            f'border-radius:6px;background:#f8f9fa;">{d}</td><td width="6"></td>'
            for d in code
        )
        shown = f'<table role="presentation" align="center"><tr>{cells}</tr></table>'
    return (
        _row(f'<p style="margin:0;font-size:13px;text-transform:uppercase;color:#5f6368;">{label}</p>',
             "padding:8px 40px 4px 40px;text-align:center;", 'class="mobile-pad"')
        + _row(shown, "padding:12px 40px;text-align:center;background:#f1f3f4;border-radius:8px;",
               'class="mobile-pad"')
        + _row(f'<p style="margin:0;color:#5f6368;font-size:12px;">{expiry}</p>',
               "padding:4px 40px 16px 40px;text-align:center;", 'class="mobile-pad"')
    )  # fmt: skip


def _button(link: str, label: str, brand: _Brand) -> str:
    vml = (
        f'<!--[if mso]><v:roundrect xmlns:v="urn:schemas-microsoft-com:vml" href="{link}" '
        f'style="height:44px;v-text-anchor:middle;width:240px;" arcsize="10%" stroke="f" fillcolor="{brand.color}">'
        f'<w:anchorlock/><center style="color:#ffffff;font-family:sans-serif;font-size:15px;">{label}</center>'
        f"</v:roundrect><![endif]-->"
    )
    anchor = (
        f'<!--[if !mso]><!--><a href="{link}" target="_blank" class="button" style="background-color:{brand.color};'
        f"border-radius:6px;color:#ffffff;display:inline-block;{_FONT};font-size:15px;font-weight:600;"
        f'line-height:44px;text-align:center;text-decoration:none;width:240px;padding:0 16px;">{label}</a>'
        "<!--<![endif]-->"
    )
    return _row(vml + anchor, "padding:16px 40px 24px 40px;text-align:center;", 'align="center" class="mobile-pad"')


def _footer(brand: _Brand, words: dict[str, str], legal_paragraphs: int, layout: int) -> str:
    links = " &nbsp;|&nbsp; ".join(
        f'<a href="https://www.{brand.domain}/{path}?utm_source=email&amp;utm_campaign=txn-{layout}" '
        f'style="color:#5f6368;text-decoration:underline;">{words[key]}</a>'
        for key, path in (
            ("privacy", "privacy"),
            ("terms", "legal/terms"),
            ("help", "support"),
            ("prefs", "settings/email"),
        )
    )
    social = "".join(
        f'<td style="padding:0 6px;"><a href="https://{site}/{brand.name.lower()}" target="_blank">'
        f'<img src="https://static.{brand.domain}/email/social/{icon}.png" width="24" height="24" alt="{icon.title()}" '
        f'style="display:block;border:0;"></a></td>'
        for site, icon in (("facebook.com", "facebook"), ("x.com", "x"), ("instagram.com", "instagram"),
                           ("linkedin.com/company", "linkedin"), ("youtube.com/@", "youtube"))
    )  # fmt: skip
    apps = (
        f'<a href="https://apps.apple.com/app/{brand.name.lower()}/id000000{layout}"><img src="https://static.'
        f'{brand.domain}/email/app-store.png" alt="Download on the App Store" width="120" height="40"></a> '
        f'<a href="https://play.google.com/store/apps/details?id=example.{brand.name.lower()}"><img src="https://'
        f'static.{brand.domain}/email/google-play.png" alt="Get it on Google Play" width="135" height="40"></a>'
    )
    legal = "".join(
        _row(words["legal"].format(brand=brand.name), "padding:6px 40px;font-size:11px;line-height:16px;color:#80868b;",
             'class="mobile-pad dark-text"')
        for _ in range(legal_paragraphs)
    )  # fmt: skip
    unsubscribe = (
        f'<a href="https://email.{brand.domain}/unsubscribe?u=9f2c1e7a&amp;list=account-notices&amp;l={layout}" '
        f'style="color:#80868b;">{words["unsubscribe"]}</a>'
    )
    return (
        _row('<hr style="border:none;border-top:1px solid #e8eaed;margin:0;">', "padding:16px 40px;")
        + _row(_table(f"<tr>{social}</tr>", width="auto"), "padding:8px 40px;", 'align="center"')
        + _row(apps, "padding:8px 40px;text-align:center;", 'align="center" class="mobile-hide"')
        + _row(words["why"].format(brand=brand.name), "padding:8px 40px;font-size:12px;color:#5f6368;",
               'class="mobile-pad"')
        + legal
        + _row(f"{links}<br><br>{unsubscribe}", "padding:8px 40px 24px 40px;font-size:11px;color:#80868b;",
               'align="center" class="mobile-pad"')
    )  # fmt: skip


def _promo(words: dict[str, str], brand: _Brand, n: int, layout: int) -> str:
    rows = []
    for i in range(n):
        img = (
            f'<img src="https://static.{brand.domain}/email/feature-{layout}-{i}.jpg" width="160" height="90" '
            f'alt="" style="display:block;border-radius:4px;">'
        )
        rows.append(
            "<tr>"
            + _td(img, "padding:8px 12px 8px 40px;width:160px;", 'class="stack-column" valign="top"')
            + _td(
                f'<p style="margin:0 0 6px 0;font-weight:600;color:#202124;">{words["promo"].split(":")[0]}</p>'
                f'<p style="margin:0;">{words["promo"]}</p>',
                "padding:8px 40px 8px 0;",
                'class="stack-column" valign="top"',
            )
            + "</tr>\n"
        )
    return _row(_table("".join(rows)), "padding:0;", 'class="mobile-hide"')


def _html(brand: _Brand, lang: str, layout: int, code: str | None, link: str | None, legal: int, promo: int) -> str:
    words = _WORDS[lang]
    name = brand.name
    body_rows = _logo(brand, layout)
    heading = words["subject_code" if code else "subject_link"].format(brand=name)
    body_rows += _row(
        f'<h1 style="margin:0;font-size:24px;line-height:32px;font-weight:400;color:#202124;">{heading}</h1>',
        "padding:8px 40px 16px 40px;",
        'class="mobile-pad dark-text"',
    )
    body_rows += _row(f'<p style="margin:0 0 12px 0;">{words["hello"]}</p>'
                      f'<p style="margin:0;">{words["intro_code" if code else "intro_link"].format(brand=name)}</p>',
                      "padding:0 40px 16px 40px;", 'class="mobile-pad dark-text"')  # fmt: skip
    if code:
        body_rows += _code_block(code, words["label"], words["expiry"], brand, layout)
    if link:
        body_rows += _button(link, words["button"], brand)
        body_rows += _row(
            f'<p style="margin:0;font-size:12px;color:#5f6368;">{words["fallback"]}<br>'
            f'<a href="{link}" style="color:{brand.color};word-break:break-all;">{link}</a></p>',
            "padding:0 40px 16px 40px;",
            'class="mobile-pad"',
        )
    body_rows += _row(f'<p style="margin:0;">{words["ignore"]}</p>', "padding:8px 40px 16px 40px;",
                      'class="mobile-pad dark-text"')  # fmt: skip
    body_rows += _row(f'<p style="margin:0;">&mdash; The {name} Accounts team</p>', "padding:0 40px 24px 40px;")
    body_rows += _promo(words, brand, promo, layout)
    card = _table(body_rows, width="600", style="max-width:600px;background:#ffffff;border-radius:8px;")
    footer = _table(_footer(brand, words, legal, layout), width="600", style="max-width:600px;")
    pixel = (
        f'<img src="https://email.{brand.domain}/o/{hashlib.sha256(heading.encode()).hexdigest()[:24]}.gif" '
        'width="1" height="1" alt="" style="display:block;height:1px;width:1px;border:0;">'
    )
    body_style = (
        "<style>\n  .button:hover { filter:brightness(1.1); }\n  u + .body .gmail-fix { display:block !important; }\n"
        "  .preheader { display:none !important; visibility:hidden; }\n</style>\n"
    )
    return (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/'
        'xhtml1-transitional.dtd">\n<html xmlns="http://www.w3.org/1999/xhtml" xmlns:v="urn:schemas-microsoft-com:vml" '
        f'xmlns:o="urn:schemas-microsoft-com:office:office" lang="{lang}">\n<head>\n'
        '<meta http-equiv="Content-Type" content="text/html; charset=UTF-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1.0">\n'
        '<meta name="x-apple-disable-message-reformatting">\n'
        f"<title>{heading}</title>\n"
        "<!--[if mso]><xml><o:OfficeDocumentSettings><o:AllowPNG/><o:PixelsPerInch>96</o:PixelsPerInch>"
        "</o:OfficeDocumentSettings></xml><![endif]-->\n"
        f'<style type="text/css">{_HEAD_CSS}</style>\n</head>\n'
        f'<body class="body dark-bg" style="margin:0;padding:0;background-color:#f1f3f4;">\n{body_style}'
        + _preheader(words["pre"] if code else words["intro_link"].format(brand=name)[:90])
        + '<!--[if mso | IE]><table role="presentation" border="0" cellpadding="0" cellspacing="0" width="600" '
        'align="center"><tr><td><![endif]-->\n'
        + _table(
            _row(card, "padding:24px 0;", 'align="center"') + _row(footer, "padding:0 0 24px 0;", 'align="center"'),
            style="background-color:#f1f3f4;",
        )
        + "<!--[if mso | IE]></td></tr></table><![endif]-->\n"
        + pixel
        + "\n</body>\n</html>\n"
    )


def _text_part(brand: _Brand, lang: str, code: str | None, link: str | None) -> str:
    words = _WORDS[lang]
    lines = [words["hello"], "", words["intro_code" if code else "intro_link"].format(brand=brand.name), ""]
    if code:
        lines += [f"{words['label']}: {code}", words["expiry"], ""]
    if link:
        lines += [f"{words['button']}: {link}", ""]
    lines += [words["ignore"], "", words["legal"].format(brand=brand.name)]
    return "\n".join(lines) + "\n"


def _one(index: int) -> Planted:
    layout, variant = divmod(index, 4)
    brand = _BRANDS[layout]
    lang = ("en", "de", "fr", "es")[(layout + variant) % 4]
    seed = hashlib.sha256(f"{brand.name}-{variant}".encode()).hexdigest()
    wants_code = (layout + variant) % 3 != 1
    wants_link = not wants_code or variant == 3
    code = str(int(seed[:8], 16) % 900_000 + 100_000) if wants_code else None
    link = (
        f"https://accounts.{brand.domain}/verify-email?token={seed[8:48]}&amp;uid={seed[48:56]}" if wants_link else None
    )
    # Grow the footer until the HTML part lands in 20-30 KB (legal paragraphs, then promo rows).
    legal, promo = 2 + variant, 1
    html = _html(brand, lang, layout, code, link, legal, promo)
    while len(html.encode()) < MIN_HTML + 2_000 * variant:
        promo += 1
        legal += promo % 2
        html = _html(brand, lang, layout, code, link, legal, promo)
    assert MIN_HTML <= len(html.encode()) <= MAX_HTML, (index, len(html.encode()))

    message = EmailMessage()
    message["From"] = f"{brand.name} <no-reply@accounts.{brand.domain}>"
    message["To"] = "agent-bench@inbox.agentmail.test"
    message["Subject"] = _WORDS[lang]["subject_code" if code else "subject_link"].format(brand=brand.name)
    message["Date"] = format_datetime(datetime(2025, 3, 1 + index, 9, 30, tzinfo=UTC))
    message["Message-ID"] = f"<{seed[:20]}@accounts.{brand.domain}>"
    plain_link = link.replace("&amp;", "&") if link else None
    if variant != 2:  # some senders send HTML alone
        message.set_content(_text_part(brand, lang, code, plain_link))
        message.add_alternative(html, subtype="html")
    else:
        message.set_content(html, subtype="html")
    return Planted(message.as_bytes(), code, plain_link)


def verification_mails() -> list[Planted]:
    """The 24 generated mails (6 layouts x 4 variants), each with the code and/or link it plants."""
    return [_one(index) for index in range(24)]
