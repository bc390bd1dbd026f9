# ruff: noqa: RUF001 - the vocabularies are multilingual: Cyrillic, fullwidth and dotless letters are meant
"""The extractor's vocabularies, data only: code keywords by kind in 14+ languages, the labels,
fillers and context words around numbers, the link intent words, and words that are no codes.
How they are matched lives in :mod:`.codes` and :mod:`.links`.
"""

from __future__ import annotations

import re
from typing import Final, Literal

__all__ = [
    "FILLER",
    "KEYWORD_KINDS",
    "LABEL_FILLER",
    "LINK_WHOLE_WORDS",
    "LINK_WORDS",
    "NOT_CODES",
    "NOT_PREFIXES",
    "REFERENCES",
    "RIGHT_FILLER",
    "STALE_GAP",
    "KeywordKind",
    "about_commerce",
    "keyword_key",
    "phrases",
]


def _words(block: str) -> frozenset[str]:
    """The whitespace-separated words of ``block``: vocabularies are written as prose blocks."""
    return frozenset(block.split())


def phrases(block: str) -> list[str]:
    """The ``|``-separated phrases of a vocabulary block, line breaks and surrounding spaces dropped."""
    return [p.strip() for p in block.replace("\n", "").split("|") if p.strip()]


def keyword_key(phrase: str) -> str:
    """A phrase without spaces and dashes: how a match, written either way, finds its kind."""
    return "".join(phrase.replace("-", " ").split())


# --- tokens ------------------------------------------------------------------------------

# Words, not prefixes of a code: "OTP-482913" is the code 482913, "ID-48291" an identifier.
NOT_PREFIXES: Final = _words("OTP PIN TAN MFA SMS ID NO NR REF TEL FAX")
# Letters-and-digits words that are not codes (formats, standards, products, units).
NOT_CODES: Final = _words(
    """SHA1 SHA256 SHA384 SHA512 MD5 AES128 AES256 UTF8 UTF16 UTF32 ISO8601 ISO9001 X509 HTML5 CSS3 MP3 MP4
    H264 H265 IPV4 IPV6 COVID19 1080P 720P 480P 2160P WIN10 WIN11 WIN32 WIN64 X86 X64 ARM64 PS4 PS5
    B2B B2C P2P E2E 2FA MFA 4K 8K 5G 4G 3G LTE USB3 HDMI2 WIFI6 RFC5322 RFC2047 RFC822"""
)


# --- code keywords -----------------------------------------------------------------------

# Phrases are lower case; a space or dash inside one matches a space, a dash or nothing.
# Latin, Greek and Cyrillic phrases must stand as words ("code" is not in "barcode");
# CJK, Thai, Arabic and Hebrew ones match inside words, as those scripts glue words together.

_STRONG: Final = """
verification code|verify code|security code|authentication code|auth code|login code|log in code
|sign in code|sign on code|one time code|one time password|one time passcode|one time pin|otp|2fa code
|two factor code|two factor authentication code|2 step verification code|mfa code|activation code|pin code
|temporary code|single use code|magic code|approval code
|bestätigungscode|sicherheitscode|verifizierungscode|verifikationscode|einmalcode|anmeldecode|authentifizierungscode
|aktivierungscode|freischaltcode|einmalpasswort|einmal passwort|prüfcode|zugangscode|bestätigungs code
|code de vérification|code de verification|code de sécurité|code de securite
|code à usage unique|code a usage unique|code de connexion|code d'authentification|code de validation
|code d'activation|code d'accès|mot de passe à usage unique|code unique
|código de verificación|codigo de verificacion|código de seguridad|codigo de seguridad|código de un solo uso
|código de acceso|código de inicio de sesión|código de autenticación
|código de activación|contraseña de un solo uso|código de validación
|código de verificação|codigo de verificacao|código de segurança|código de autenticação
|código de uso único|código de ativação|código de validação|senha de uso único
|codice di verifica|codice di sicurezza|codice otp|codice di accesso|codice monouso
|codice di autenticazione|codice di attivazione|codice di convalida
|verificatiecode|controlecode|beveiligingscode|inlogcode|bevestigingscode|toegangscode|eenmalige code|authenticatiecode
|activeringscode|aanmeldcode|verificatie code
|код подтверждения|код проверки|проверочный код|одноразовый код|код безопасности|код для входа|код авторизации
|одноразовый пароль|код верификации|код активации|код подтвердження|код підтвердження|код перевірки
|одноразовий код
|kod weryfikacyjny|kod potwierdzający|kod potwierdzajacy|kod jednorazowy|kod bezpieczeństwa|kod logowania
|kod autoryzacyjny|hasło jednorazowe|kod aktywacyjny|kod dostępu
|doğrulama kodu|doğrulama kodunuz|dogrulama kodu|onay kodu|onay kodunuz|güvenlik kodu|güvenlik kodunuz
|tek kullanımlık|tek kullanimlik|giriş kodu|giriş kodunuz|aktivasyon kodu
|verifieringskod|säkerhetskod|engångskod|bekräftelsekod|inloggningskod|bekræftelseskode|sikkerhedskode
|engangskode|verifikationskode|bekreftelseskode|verifiseringskode|påloggingskode|vahvistuskoodi|turvakoodi
|kertakäyttökoodi|ověřovací kód|bezpečnostní kód|potvrzovací kód|jednorázový kód|ellenőrző kód|biztonsági kód
|megerősítő kód|cod de verificare|cod de securitate|cod de confirmare|codul de verificare|codul de confirmare
|codul de securitate|codul de autentificare|cod de autentificare|autorizační kód|autorizacni kod|mobiletan|mobile tan
|smstan|sms tan|pushtan|push tan|phototan|chiptan|transaktionsnummer|ihre tan|deine tan|die tan|tan nummer
|κωδικός επαλήθευσης|κωδικός επιβεβαίωσης
|κωδικός ασφαλείας|kode verifikasi|kode otp|kode keamanan|kod pengesahan|kode konfirmasi|mã xác minh|mã xác nhận
|mã xác thực|mã otp|mã bảo mật|رمز التحقق|رمز التأكيد|كود التحقق|رمز الأمان|קוד אימות|รหัสยืนยัน|รหัส otp
|รหัสผ่านครั้งเดียว|सत्यापन कोड|ओटीपी
|验证码|校验码|动态码|驗證碼|校驗碼|動態碼|认证码|認證碼|安全码|安全碼|登录码|登入碼|动态密码|動態密碼
|一次性密码|一次性密碼|認証コード|確認コード|ワンタイム|検証コード|認証番号|パスコード|セキュリティコード
|ログインコード|確認用コード|認証キー|인증번호|인증 번호|인증 코드|인증코드|확인 코드|확인코드|보안 코드|보안코드
|일회용 비밀번호|일회용 코드|로그인 코드
"""
# "Confirmation code" is a one-time code in a sign-up mail and a booking reference in a
# booking mail: strong, unless the subject is about an order, a booking or a trip.
_CONFIRMATION: Final = """
confirmation code|code de confirmation|código de confirmación|codigo de confirmacion|código de confirmação
|codice di conferma|确认码|確認碼|確認番号
"""
_PLAIN: Final = """
code|codes|pin|passcode|access code|2fa|mfa|2sv|kód|kódu|kod|kodu|kodem|kody|kodzie|kodun|kodunuz|kodunu|kode
|koden|koodi|codul|код|кода|коду|кодом|коде|коды|código|codigo|códigos|codice|codici|cod|κωδικός|κωδικό|קוד|رمز|كود
|รหัส|कोड|mã
|şifre|şifreniz|sifre|コード|코드
"""
_WEAK: Final = """
type|enter|input|eingeben|saisissez|entrez|tapez|introduce|ingresa|escribe|digite|insira|inserisci|digita|voer
|typ|введите|введіть|wpisz|wprowadź|girin|ange|skriv|indtast|syötä|zadejte|írja be|introduceți|πληκτρολογήστε
|nhập|masukkan|入力|입력|输入|輸入
|verification|verify|verifying|authenticate|authentication|one time|sign in|log in|login
|two factor|2 step|two step|security|identity|token|bestätigung|bestätigen|verifizierung|anmeldung
|vérification|vérifier|connexion|verificación|verificar|verificação|verifica|verificare|verificatie|проверка
|вход|weryfikacja|logowanie|doğrulama|giriş|xác minh|verifikasi|επαλήθευση|אימות|التحقق|सत्यापन
|验证|驗證|认证|認證|登录|登入|認証|ログイン|인증|로그인
"""
_CONFIRM: Final = """
confirm|confirmation|confirmación|confirmação|conferma|bevestiging|подтверждение|подтвердить|potwierdzenie|onay
|xác nhận|ยืนยัน|确认|確認|확인
"""
# "code" that is not a one-time code; matched as a whole phrase, so its "code" never counts.
_NOT_CODE_PHRASES: Final = """
promo code|promotional code|coupon code|discount code|gift code|gift card code|voucher code|referral code|invite code
|invitation code|reward code|redemption code|redeem code|qr code|bar code|zip code|postal code|post code|area code
|country code|dial code|dialing code|dress code|source code|error code|status code|response code|exit code
|tracking code|order code|product code|item code|article code|booking code|reservation code|tax code|sort code
|swift code|bank code|bic code|routing code|html code|embed code|color code|colour code|pickup code|pick up code
|code review|code owners|code of conduct|code snippet|code block|code base|codebase|code change|code changes
|code coverage|code quality|code sample|code samples|code editor|code examples|code example
|gutscheincode|rabattcode|aktionscode|promocode|postleitzahl|fehlercode|buchungscode|code promo|code promotionnel
|code de réduction|code postal|code d'erreur|code de réservation|code cadeau|código promocional|código de descuento
|código postal|código de error|código de reserva|cupón|cupom|código de desconto|codice sconto|codice promozionale
|codice postale|codice fiscale|codice di prenotazione|codice coupon|kortingscode|actiecode|promotiecode|промокод
|почтовый индекс|код купона|код скидки|код заказа|kod rabatowy|kod promocyjny|kod pocztowy|indirim kodu
|promosyon kodu|kupon kodu|posta kodu|优惠码|優惠碼|折扣码|邀请码|邀請碼|邮编|邮政编码|兑换码|兌換碼|优惠券|取件码|券码
|クーポンコード|郵便番号|割引コード|プロモーションコード|招待コード|프로모션 코드|할인 코드|쿠폰 코드|우편번호|쿠폰 번호
|campaign code|キャンペーンコード|캠페인 코드|活动码|活動碼
|anti phishing code|antiphishing code|anti phishing phrase|security phrase|code anti phishing|code anti hameçonnage
|código anti phishing|código antiphishing|codice anti phishing|anti phishing code|antiphishingcode|cod poștal
|cod postal|kode pos|mã bưu chính|mã bưu điện|поштовий індекс|ταχυδρομικός κώδικας
|term code|course code|class code|section code|module code|subject code|codice aic|kod kontrolny biletu
|codice biglietto|codice pnr|pnr code|pnr kodu|ticket code|booking code|código de reserva|código del billete
|антифишинговый код|kod antyphishingowy|kimlik avı önleme kodu|防钓鱼码|防釣魚碼|フィッシング対策コード|피싱 방지 코드
"""
# Labels of numbers that are not codes: they disqualify a number bound to them ("Customer ID:
# 48291", "48291 is your account number").
_LABELS: Final = """
reference|ref|account|acct|customer|client|member|membership|ticket|case|claim|serial|model|sku|item|policy
|contract|loan|iban|card|ending in|ends in|ending with|last four|last 4|zip|postal|postcode|p.o. box|po box|suite
|apt|apartment|unit|room|gate|seat|terminal|platform|vat|tax|id|request|application|patient|student|employee
|license|licence|vin|imei|version|pnr|record locator|confirmation number|confirmation no|commit|sha|hash
|pull request|pr|issue|build|run|job|kundennummer|kunde
|konto|kontonummer|referenz|vorgang|vorgangsnummer|référence|compte|referencia|cuenta|cliente|conta|riferimento
|conto|referentie|rekening|klant|klantnummer|hesap|계좌|末四位|尾号|尾號|末尾|下4桁|下四桁|끝자리|뒷자리|末四碼|末四码|後四碼|后四码|統一編號|统一编号|統一編号
|税号|稅號|инн|огрн|кпп|(우)|anti phishing|antiphishing|pnr|serial number|serienummer|device id|device code
|kundnummer|medlemsnummer|kontonummer|referens|ärende|kundenummer|asiakasnumero|jäsennumero|viite|tilinumero
|zákaznické číslo|číslo účtu|číslo smlouvy|variabilní symbol|ügyfélszám|számlaszám|hivatkozás|număr client|cont
|referință|αριθμός πελάτη|λογαριασμός|номер клієнта|рахунок|договір|особовий рахунок|khách hàng|hợp đồng
|tài khoản|số tham chiếu|nomor pelanggan|rekening|nomor referensi|biglietto|billete|bilhete|billet|fahrkarte
|bilet|ticketnummer|плательщика|плательщик|платника|klienta|klientów|număr|numărul|înregistrare|參考編號|参考编号
|參考號碼|参考号码|交易編號|交易编号|訂單編號|订单编号|識別碼|识别码|lotto|lot|batch|charge|lote|partij|партия
|biletu|nummer|カード番号|会員番号|お客様番号
"""
# Labels that also sink a number merely near them (within a few words, same phrase): orders,
# bills, parcels, trips, phones. "Order 4829-1234", "客服 400-123-4567", "고객센터 1577-3754".
_NEAR_LABELS: Final = """
order|orders|invoice|bill|tracking|track|shipment|shipping|parcel|package|delivery|consignment|waybill|flight
|booking|reservation|receipt|transaction|txn|phone|telephone|tel|fax|mobile|cell|call|hotline|helpline
|customer service|customer support|bestellung|bestellnummer|auftrag|auftragsnummer|rechnung|rechnungsnummer
|sendung|sendungsnummer|paket|lieferung|buchung|buchungsnummer|telefon|handy|mobil|commande|facture|suivi|colis
|livraison|réservation|téléphone|tél|pedido|factura|seguimiento|envío|envio|paquete|reserva|teléfono|encomenda
|fatura|rastreamento|entrega|telefone|ordine|fattura|spedizione|pacco|prenotazione|telefono|bestelling
|bestelnummer|factuur|zending|pakket|boeking|telefoon|заказ|заказа|счёт|счет|счета|отслеживания|трек|посылка
|посылки|бронирование|бронирования|телефон|zamówienie|zamówienia|faktura|faktury|przesyłka|przesyłki|rezerwacja
|rezerwacji|sipariş|siparişiniz|siparis|kargo|takip|rezervasyon|订单|訂單|发票|發票|运单|運單|快递|快遞|单号|單號
|电话|電話|手机|手機|客服|热线|注文|請求書|追跡|予約|伝票|お問い合わせ番号|お問い合わせ|주문|송장|운송장|예약
|청구서|전화|고객센터|appelez|appeler|llame|llamar|ligue|chiami|chiamare|bel|звоните|позвоните|zadzwoń|arayın
|beställning|ordernummer|faktura|leverans|försändelse|bokning|bestilling|levering|forsendelse|tilaus|lasku
|toimitus|lähetys|varaus|objednávka|objednávky|faktura|zásilka|zásilky|rezervace|rendelés|számla|szállítás
|csomag|foglalás|comandă|comanda|factură|livrare|colet|awb|rezervare|παραγγελία|τιμολόγιο|αποστολή|κράτηση
|замовлення|рахунок фактура|доставка|посилка|бронювання|đơn hàng|hóa đơn|vận đơn|giao hàng|đặt chỗ|pesanan
|faktur|pengiriman|paket|pemesanan|train|zug|treno|tren|trem|поезд|pociąg|列车|列車|열차
"""
# Words that make a nearby number something else (a meeting, a trip, an address, an amount,
# a date) when they are closer to it than the code word.
_CONTEXT: Final = """
boarding|itinerary|departure|arrival|airline|street|avenue|ave
|road|blvd|boulevard|lane|parkway|floor|st.|straße|strasse|str.|platz|gasse|postfach|rue|calle|avenida|rua
|piazza|straat|ulica|улица|cadde|sokak|丁目|番地|price|total|subtotal|amount|balance|paid|payment|charged|refund
|fee|cost|summe|betrag|gesamt|montant|prix|importe|precio|valor|preço|importo|prezzo|bedrag|prijs|сумма|цена
|kwota|cena|tutar|fiyat|金额|金額|价格|合計|料金|금액|가격|date|dated|datum|fecha|дата|tarih|日期
"""
# Meetings: a number near one of these words is a meeting ID or a dial-in, unless a code word
# names it right before ("Passcode: 739210" is what a guest types, so it is a code).
_MEETING: Final = """
meeting|webinar|conference call|dial in|join by phone|zoom meeting|teams meeting|besprechung|réunion|reunión
|reunião|riunione|vergadering|встреча|spotkanie|toplantı|会议|會議|会議|회의
"""
# Promotions: a code near one of these words (and not named a verification code) is a promo
# code, whatever the word order.
_OFFTOPIC: Final = """
promo|promotion|promotional|coupon
|discount|voucher|% off|percent off|gift card|redeem|referral|cashback|checkout|shop now|rabatt|gutschein
|réduction|remise|soldes|descuento|cupón|cupom|desconto|sconto|korting|скидк|купон|акция
|rabat|zniżk|promocja|indirim|kampanya|优惠|折扣|促销|クーポン|割引|セール|할인|쿠폰|campaign|キャンペーン
|캠페인|活动代码|活動代碼
"""


# A code the mail calls old. Before it, as an attribute ("your previous code 483920", "el código
# anterior 483920"); after it, as what is said of it ("483920 is no longer valid", "483920 已失效").
_STALE_BEFORE: Final = """
previous|earlier|old|older|former|prior|vorherige|vorheriger|vorherigen|alte|alter|alten|frühere|früherer
|früheren|précédent|précédente|ancien|ancienne|anterior|antiguo|antigo|precedente|vecchio
|vorige|oude|eerdere|предыдущий|предыдущего|старый|прежний|poprzedni|poprzedniego|stary|önceki|eski
|tidigare|gamla|förra|forrige|gamle|edellinen|vanha|předchozí|starý|původní|előző|régi|anteriorul|vechi
|προηγούμενος|προηγούμενο|παλιός|попередній|старий|trước đó|cũ|sebelumnya|以前の|前回の|古い|先ほどの
|이전|기존|之前的|之前|旧的|舊的|上一个|上一個
"""
_STALE_AFTER: Final = """
expired|has expired|is expired|no longer valid|no longer works|no longer work|is invalid|is now invalid|invalidated
|replaced|superseded|revoked|deactivated|abgelaufen|ist ungültig|nicht mehr gültig|wurde ersetzt|expiré
|n'est plus valide
|n'est plus valable|remplacé|est invalide|caducado|expirado|ya no es válido|ya no es valido|reemplazado|es inválido
|não é mais válido|nao e mais valido|substituído|expirou|scaduto|non è più valido|non e piu valido|sostituito
|verlopen|niet meer geldig|vervangen|is ongeldig|истёк|истек|больше не действителен|недействителен|заменён|заменен
|wygasł|wygasl|nieważny|niewazny|zastąpiony|süresi doldu|artık geçerli değil|geçersizdir|har gått ut|inte längre giltig
|är ogiltig|ersatt|er udløbet|ikke længere gyldig|er ugyldig|erstattet|vanhentunut|ei ole enää voimassa|vypršel
|již neplatí|již není platný|je neplatný|nahrazen|lejárt|már nem érvényes|érvénytelenné vált|a expirat
|nu mai este valid|έληξε
|δεν ισχύει πλέον|сплив|більше не дійсний|недійсний|замінено|đã hết hạn|không còn hiệu lực|kedaluwarsa
|tidak berlaku lagi|は無効|無効になりました|期限切れです|失効しました|만료되었|만료된|무효입니다|已失效|已过期|已過期
|已作废|已作廢
|can no longer be used|cannot be used anymore|can't be used anymore|kann nicht mehr verwendet werden
|ne peut plus être utilisé|ya no se puede usar|não pode mais ser usado|non può più essere utilizzato
|kan niet meer worden gebruikt|больше нельзя использовать|nie może być już użyty|artık kullanılamaz
|kan inte längre användas|již nelze použít|không thể sử dụng|もう使用できません|使用できません|더 이상 사용할 수 없
|사용할 수 없|无法再使用|不能再使用|已无法使用|無法再使用
"""


KeywordKind = Literal[
    "strong",
    "confirmation",
    "plain",
    "weak",
    "confirm",
    "not-code",
    "label",
    "near-label",
    "context",
    "offtopic",
    "meeting",
    "stale-before",
    "stale-after",
]
KEYWORD_KINDS: Final[tuple[tuple[KeywordKind, str], ...]] = (
    # Earlier kinds win a phrase spelled alike ("code" is plain; "promo code" is not-code).
    ("not-code", _NOT_CODE_PHRASES),
    ("strong", _STRONG),
    ("confirmation", _CONFIRMATION),
    ("plain", _PLAIN),
    ("weak", _WEAK),
    ("confirm", _CONFIRM),
    ("label", _LABELS),
    ("near-label", _NEAR_LABELS),
    ("offtopic", _OFFTOPIC),
    ("meeting", _MEETING),
    ("context", _CONTEXT),
    ("stale-before", _STALE_BEFORE),
    ("stale-after", _STALE_AFTER),
)


# Words that may stand between a code word and its code ("code is", "code below:", "码是").
FILLER: Final = _words(
    """is was are be the your our my this of for a an code codes here below follows as please enter use number
    id no nr ist lautet lauten ihr ihre dein deine unten est sont votre vos ton ta ci dessous es son su sus tu
    abajo é è são seu sua abaixo il la le lo sotto de du da del di van je uw hieronder to jest twój twoj sizin
    ваш это ниже poniżej aşağıda 是 为 為 如下 以下 は が 는 은 이 가 을 를 아래 # är din ditt dina er dit dine nedan
    nedenfor on sinun alla je váš vaše níže az ön alábbi este tău dvs είναι σας є ваш нижче là của bạn adalah anda
    kamu berikut"""
)
# Words that may stand between a label and its number ("Order No.", "numéro de commande").
# Not "code": "your order. Your code is 123456" binds the code to "code", not to "order".
LABEL_FILLER: Final = _words(
    """number numbers num no nr n nº n° id is was the your our my of for a ist lautet ihr ihre est votre es su tu
    é è de du da del di van uw numéro numero número nummer номер ваш numer twój numarası numarasi numaranız
    sizin 番号 号 號 번호 号码 號碼 编号 編號 是 为 は が 는 은 이 # №"""
)
# After a number, before its label: "123456 is your order number".
RIGHT_FILLER: Final = _words(
    """is ist est es é è was are be your the our this that ihre ihr votre vos tu su sus il la le de du of die der
    das это ваш twój sizin 您的 你的 是 为 は が 는 은 이"""
)


# Names of references that a plain code word may be glued to ("PNR kodu", "Codice biglietto",
# "Mã đơn hàng"): then the pair names that reference, not a one-time code.
REFERENCES: Final = frozenset(
    keyword_key(p)
    for p in phrases(
        """pnr|ticket|biglietto|billete|bilhete|billet|bilet|biletu|fahrkarte|customer|client|cliente|klienta
        |kunde|klant|booking|reservation|reserva|prenotazione|réservation|buchung|rezerwacji|order|pedido|commande
        |ordine|bestellung|bestelling|zamówienia|sipariş|đơn hàng|vận đơn|khách hàng|hợp đồng|tracking|envío|envio
        |shipment|spedizione|sendung|tracking number|invoice|factura|fattura|rechnung|facture|faktury|contract
        |плательщика|платника|lot|lotto|batch|lote|serial|member|membership"""
    )
)


# What may stand between a code and a word calling it old: "previous verification code was",
# "483920 has now been replaced". Code nouns and copulas only: "use", "enter", "please" are not
# here, so "if the link has expired, enter code 602913" still gives the code.
STALE_GAP: Final = _words(
    """is was were are has have had been now the your my that code codes pin otp passcode password
        verification security login time confirmation authentication ist war wurde ihr ihre dein
        est était a été votre ton es era fue ha sido su tu é foi era seu sua il è è stato era tuo is was uw je
        был была было ваш ваша jest był twój önceki idi senin är var din er var din on oli sinun je byl váš
        volt az a fost είναι був ваш là của bạn adalah sudah telah 是 已 您的 你的 は が 은 는 이 가"""
) | _words(_PLAIN.replace("|", " "))


# Orders, bookings, trips, bills: a subject about one of these makes "confirmation" a reference.
_COMMERCE: Final = re.compile(
    r"order|booking|reservation|flight|trip|itinerary|boarding|check-in|e-ticket|receipt|invoice|shipping"
    r"|shipment|shipped|delivery|\bcita\b|\btermin\b|rendez-vous|appuntament|afspraak|wizyt|randevu|consulta médica"
    r"|预约|預約"
    r"|delivered|payment|purchase|ticket|appointment|bestellung|buchung|rechnung|commande|réservation|facture"
    r"|pedido|reserva|factura|ordine|prenotazione|fattura|bestelling|boeking|factuur|заказ|бронир|счёт|счет"
    r"|zamówien|rezerwac|faktur|sipariş|rezervasyon|fatura|订单|訂單|预订|預訂|发票|發票|注文|予約|請求|주문|예약|영수증"
)


def about_commerce(subject_low: str) -> bool:
    """Whether a (lower-cased) subject is about an order, a booking, a trip or a bill."""
    return bool(_COMMERCE.search(subject_low))


# --- links -------------------------------------------------------------------------------

# Words read in a link's text and in its URL (lower-cased). A space or dash in a phrase also
# matches "_" or nothing: "sign in" finds "signin", "sign-in", "sign_in".
LINK_WORDS: Final[tuple[tuple[str, str], ...]] = (
    # What a verification link does: verify, activate, validate, approve, sign in by magic link.
    (
        "intent",
        """verif|activat|magic|validat|approv|approuv|aprob|aprueb|aprovar|aprovação|freigeb|goedkeur|одобр|zatwierd
        |godkänn|godkend|godkjenn|hyväksy|schváli|jóváhagy|aprobă|εγκρ|схвал|phê duyệt|chấp thuận|setujui|承認|승인|批准
        |passwordless|aktivier|freischalt|vérif|activer|valider|activar|ativar
        |attiva|activeer|verifieer|активир|aktywuj|weryfik|doğrula|dogrula|etkinleştir|aktivera|aktivér|aktiver
        |aktivoi|ověř|overiť|aktivov|aktivuj|ellenőriz|hitelesít|aktivál|activează|activeaza|επαλήθευ|ενεργοποί
        |активу|верифік|aktivir|xác minh|kích hoạt|aktifkan|تحقق|تفعيل|אמת|הפעל|เปิดใช้งาน|सत्यापित|सक्रिय
        |验证|驗證|激活|啟用
        |认证|認證|認証|有効化|本登録|인증|활성화""",
    ),
    # Resetting a password: the action of a reset mail, account management in a mail about a code.
    (
        "reset",
        """reset|zurücksetz|zuruecksetz|wiederherstell|réinitialis|reinitialis|restablec|redefinir|recuperar
        |reimposta|ripristin|herstel|сброс|восстанов|resetuj|sıfırla|återställ|nulstil|tilbakestill|nollaa
        |palauta|obnov|visszaállít|resetare|resetează|επαναφορ|epanafor|скину|скид|віднов|vosstanov|sbros|recuper
        |đặt lại|atur ulang
        |setel ulang|إعادة تعيين|איפוס|รีเซ็ต|रीसेट|重置|重設|再設定|リセット|재설정""",
    ),
    # Confirming: an address in a sign-up mail, an order in an order mail (then it does not count).
    (
        "confirm",
        """confirm|bestätig|bestaetig|conferm|bevestig|подтвер|potwierdz|potwierdź|onayla|bekräfta|bekraefta|bekræft
        |bekreft|vahvista|potvrd|megerősít|megerosit|confirmă|επιβεβαί|підтвер|xác nhận|konfirmasi|تأكيد|אישור|אשר
        |podtverd|pidtverd|ยืนยัน|पुष्टि|确认|確認|확인""",
    ),
    # Signing in: a verification link in a mail about signing in, a header link in a newsletter.
    (
        "login",
        """sign in|log in|sign on|sign me in|auth|token|otp|anmeld|einlogg|connexion|se connecter|iniciar sesi
        |inicia sesi|entrar|acceder|acessar|accedi|accesso|accès|acceso|acesso|inlogg|aanmelden|войти|вход|zaloguj
        |logowanie|giriş|logga in|log ind|logg inn|kirjau|přihlá|prihlás|bejelentkez|conectare|autentificare
        |conectează|σύνδεση|увійти
        |вхід|đăng nhập|masuk|تسجيل الدخول|התחבר|כניסה|เข้าสู่ระบบ|साइन इन|लॉग इन|登录|登入|登錄
        |ログイン|サインイン|로그인""",
    ),
    # Never a verification link, whatever else it says.
    (
        "never",
        """unsub|opt out|abmeld|abbestell|désabonn|desabonn|désinscri|desinscri|darse de baja|dar de baja
        |cancelar suscrip|cancelar la suscrip|descadastr|disiscri|annulla iscrizione|annulla l'iscrizione
        |uitschrijv|afmeld|отпис|wypisz|rezygn|abonelik|avsluta prenumeration|avregistrer|afmeld|meld deg av
        |peruuta tilaus|odhlásit odběr|odhlášení odběru|leiratkoz|dezabon|απεγγραφ|відпис|hủy đăng ký
        |berhenti berlangganan|إلغاء الاشتراك|הסרה מרשימת|ยกเลิกการรับ|退订|退訂|取消订阅|配信停止|購読解除|수신 거부
        |privacy|datenschutz|confidentialit|privacidad|privacidade|riservatezza|конфиденц|prywatn|gizlilik
        |integritet|privatliv|personvern|tietosuoja|ochrana osobních|ochrana údajů|adatvédelm|confidențialit
        |απόρρητο|конфіденц|quyền riêng tư|privasi|الخصوصية|פרטיות|ความเป็นส่วนตัว|隐私|隱私|プライバシー|개인정보
        |terms|impressum|imprint|agb|nutzungsbedingungen|términos|terminos|termos|termini|voorwaarden|regulamin
        |koşullar|villkor|vilkår|käyttöehdot|podmínky|feltételek|termeni|όροι|умови|điều khoản|syarat|الشروط
        |תנאי|条款|條款|規約|약관|view in browser|view in your browser|view in a browser|view it in your browser
        |view this email in your browser|view this email in a browser|view online|view email online|web version
        |webversion|online version|webansicht|im browser|navigateur|navegador|app store|google play
        |download|herunterladen|télécharger|telecharger|descargar|baixar|scarica|downloaden|скачать|pobierz|indir
        |ladda ner|lataa|stáhnout|letöltés|descarcă|κατεβάστε|завантажити|tải xuống|unduh|下载|下載|ダウンロード
        |다운로드
        |follow us|how to|how we|how do|wie man|so geht|comment faire|cómo
        |como fazer|come fare|hoe je|как настроить|jak zrobić|nasıl yapılır|hur man|如何|どうやって|하는 방법
        |deny|reject|decline|block|not me|wasn't me|wasnt me|ablehnen|blockieren|das war ich nicht|refuser|bloquer
        |ce n'était pas moi|rechazar|bloquear|no fui yo|recusar|não fui eu|rifiuta|blocca|non ero io|weigeren
        |blokkeren|dit was ik niet|отклонить|заблокировать|это был не я|это не я|odrzuć|zablokuj|to nie ja|reddet
        |engelle|ben değilim|avvisa|blockera|det var inte jag|afvis|bloker|det var ikke mig|hylkää|estä|odmítnout
        |zablokovat|elutasít|letilt|respinge|blochează|απόρριψη|αποκλεισμός|відхилити|заблокувати|це був не я
        |từ chối|chặn|tolak|blokir|拒否|ブロック|私ではありません|거부|차단|본인이 아닙니다|拒绝|拒絕|阻止|不是我""",
    ),
    # Not a verification link unless it says verify, confirm, reset ... itself.
    (
        "soft-never",
        """help|support|faq|contact|hilfe|kontakt|kundenservice|aide|assistance|ayuda|soporte|ajuda|suporte|aiuto
        |assistenza|klantenservice|помощ|поддержк|pomoc|wsparcie|yardım|destek|hjälp|kundtjänst|hjælp|hjelp|ohje
        |asiakaspalvelu|nápověd|podpora|súgó|segítség|ügyfélszolgálat|ajutor|asistență|βοήθεια|υποστήριξη|допомог
        |підтримк|trợ giúp|hỗ trợ|liên hệ|bantuan|hubungi|帮助|幫助|客服|联系我们|聯絡我們|ヘルプ|お問い合わせ|サポート
        |도움말|고객센터|문의|report|legal""",
    ),
    # Settings and preferences: "Confirm your subscription preferences" confirms settings, not an address.
    (
        "settings",
        """preferences|preference|settings|einstellungen|paramètres|préférences|configuración|preferencias
        |configurações|preferências|impostazioni|preferenze|instellingen|voorkeuren|настройк|ustawienia|preferencje
        |ayarlar|tercihler|inställningar|indstillinger|innstillinger|asetukset|nastavení|předvolby|beállítások
        |setări|preferințe|ρυθμίσεις|налаштуван|cài đặt|tùy chọn|pengaturan|preferensi|设置|設定|偏好|설정""",
    ),
    # Opening the same action in the app: a second way, after the mail's own button.
    (
        "app",
        """open in app|open in the app|open the app|in der app öffnen|app öffnen|ouvrir dans l'application
        |ouvrir l'application|abrir en la app|abrir la app|abrir no app|abrir o app|apri nell'app|apri l'app
        |open in de app|открыть в приложении|otwórz w aplikacji|uygulamada aç|öppna i appen|åbn i appen
        |avaa sovelluksessa|otevřít v aplikaci|megnyitás az alkalmazásban|deschide în aplicație|άνοιγμα στην εφαρμογή
        |відкрити в застосунку|mở trong ứng dụng|buka di aplikasi|アプリで開く|앱에서 열기|在应用中打开
        |在app中打开|在應用程式中開啟""",
    ),
    # An account's sign-in history and devices: where one looks, not what one confirms ("ログイン履歴を確認
    # する" is "check your sign-in history"); only a link whose address or text asks to verify or sign in.
    (
        "activity",
        """login history|sign in history|login activity|sign in activity|anmeldeverlauf|anmeldeaktivität
        |historique de connexion|historial de inicio de sesión|histórico de login|histórico de acesso
        |cronologia accessi|история входов|історія входів|historia logowania|giriş geçmişi|inloggningshistorik
        |lịch sử đăng nhập|ログイン履歴|로그인 기록|로그인 내역|登录记录|登錄記錄|登入紀錄|登录历史|登入記錄|devices
        |your devices|geräte|appareils|dispositivos|dispositivi|apparaten|устройства|urządzenia|cihazlar|enheter
        |enheder|laitteet|eszközök|dispozitive|συσκευές|пристрої|已登入的裝置|登入的裝置|已登录的设备|已登录设备
        |裝置管理|设备管理|デバイス管理|ログイン中の端末|기기 관리|로그인된 기기""",
    ),
    # Managing an account: not a verification link unless its own text asks to verify, confirm or
    # sign in ("Forgot your password?", "Security settings", "Wasn't you? Secure your account").
    (
        "manage",
        """forgot|forgotten|manage|security settings|account settings|recovery code|backup code|wasn't you
        |wasnt you|was not you|secure your account|secure my account|review activity|recent activity
        |check activity|change password|change your password|lock your account
        |passwort vergessen|sicherheitseinstellungen|kontoeinstellungen|konto schützen|konto sichern|verwalten
        |wiederherstellungscode|waren sie das nicht|passwort ändern|letzte aktivität
        |mot de passe oublié|paramètres de sécurité|sécuriser votre compte|sécuriser mon compte|protéger votre compte
        |gérer|codes de récupération|code de récupération|ce n'était pas vous|ce n'est pas vous|ce n'était pas moi
        |modifier le mot de passe|activité récente|olvidaste tu contraseña|olvidé mi contraseña|ajustes de seguridad
        |proteger tu cuenta|gestionar|administrar|códigos de recuperación|código de recuperación|no fuiste tú
        |cambiar contraseña|actividad reciente|esqueceu sua senha|esqueceu a senha|esqueci minha senha
        |proteger sua conta|gerenciar|códigos de recuperação|código de recuperação|não foi você|não fui eu
        |alterar senha|atividade recente|password dimenticata|hai dimenticato la password|proteggi il tuo account
        |gestisci|codici di recupero|codice di recupero|non sei stato tu|non eri tu|cambia password
        |wachtwoord vergeten|beveiligingsinstellingen|beveilig je account|beveilig uw account|beheren|herstelcode
        |was jij dit niet|was u dit niet|wachtwoord wijzigen|забыли пароль|настройки безопасности
        |защитить аккаунт|защитите аккаунт|управлять|управление аккаунтом|резервные коды|коды восстановления
        |это были не вы|это не вы|сменить пароль|изменить пароль|nie pamiętasz hasła|zapomniałeś hasła
        |to nie ty|to nie byłeś ty|ustawienia bezpieczeństwa|zabezpiecz konto|zabezpiecz swoje konto|zarządzaj
        |kody zapasowe
        |kody odzyskiwania|zmień hasło|şifreni mi unuttun|şifrenizi mi unuttunuz
        |şifremi unuttum|güvenlik ayarları|hesabını güvenceye al|hesabınızı güvenceye alın|hesabınızı koruyun
        |kurtarma kod|siz değil miydiniz|bu siz değil miydiniz|sen değil misin|şifre değiştir|glömt lösenord
        |glömt ditt lösenord|säkerhetsinställningar|skydda ditt konto|hantera|återställningskoder|reservkoder
        |var det inte du|byt lösenord|ändra lösenord|glemt adgangskode|glemt din adgangskode
        |beskyt din konto|administrer|gendannelseskoder|var det ikke dig|glemt passord|beskytt kontoen
        |var det ikke deg|unohditko salasanan|unohtunut salasana|suojaa tilisi|hallinnoi|hallitse|palautuskoodit
        |etkö se ollut sinä|zapomněli jste heslo|zapomenuté heslo|zabezpečit účet|zabezpečte svůj účet|spravovat
        |spravujte|záložní kódy|kódy pro obnovení|nebyli jste to vy|nebyl jste to vy|změnit heslo|elfelejtett jelszó
        |elfelejtette jelszavát|fiók védelme|kezelése|helyreállítási kódok|nem ön volt|nem te voltál
        |ai uitat parola|securizează contul|gestionează|coduri de recuperare|nu ai fost tu|ξεχάσατε τον κωδικό
        |προστατέψτε τον λογαριασμό|διαχείριση|κωδικοί ανάκτησης|δεν ήσασταν εσείς|забули пароль
        |захистити обліковий запис|захистіть акаунт|керувати|резервні коди|коди відновлення|це були не ви
        |змінити пароль|quên mật khẩu|bảo vệ tài khoản|quản lý|mã khôi phục|mã dự phòng|không phải bạn
        |đổi mật khẩu|lupa kata sandi|amankan akun|kelola|kode pemulihan|bukan anda|ubah kata sandi
        |パスワードをお忘れ|パスワードを忘れ|アカウントを保護|リカバリーコード|バックアップコード|心当たりがない
        |身に覚えがない|パスワードを変更|비밀번호를 잊|비밀번호 찾기|계정 보호|복구 코드|백업 코드
        |본인이 아닌|본인이 아니|비밀번호 변경|忘记密码|忘記密碼|保护账户|保護帳戶|保护您的账户|恢复码|恢復碼
        |备用码|備用碼|不是你本人|不是您本人|非本人|修改密码|修改密碼|更改密码""",
    ),
    # Confirming an order, a booking or a meeting is not confirming an address.
    (
        "not-account",
        """order|booking|reservation|shipping|shipment|delivery|payment|purchase|appointment|attendance
        |asistencia|presença|presenza|teilnahme|deelname|участие|udział|katılım|närvaro|出席|참석|statement
        |kontoauszug|relevé|extracto|estratto|afschrift|выписк|wyciąg|ekstre|明細|账单|帳單|명세서
        |rsvp|meeting|event|webinar|webinaire|seminar|ordre|ticket|flight|trip|bestellung|buchung|commande|réservation|pedido|reserva|ordine
        |prenotazione|bestelling|boeking|заказ|бронир|zamówien|rezerwac|sipariş|rezervasyon|beställning|bokning
        |bestilling|booking|tilaus|varaus|objednávk|rezervac|rendelés|foglalás|comandă|rezervare|παραγγελ|κράτηση
        |замовлен|đơn hàng|đặt chỗ|pesanan|订单|訂單|预订|預訂|注文|予約|주문|예약|loyalty|rewards|fidélité|fidelidad
        |fidelidade|fedeltà|treue|loyaliteit|лояльност|lojalnoś|sadakat|积分|積分|ポイント|포인트""",
    ),
    # What a subject says when the mail is about signing in.
    (
        "topic",
        """code|password|passwort|mot de passe|contraseña|senha|пароль|hasło|şifre|lösenord|adgangskode|passord
        |salasana|heslo|jelszó|jelszav|parola|parolă|κωδικ|mật khẩu|kata sandi|kod|kód|koodi|kode|код|mã
        |密码|密碼|パスワード|비밀번호""",
    ),
    # Longer words that hold a shorter one above without its meaning.
    ("ignore", "author|authority|supported|supporter|helpful|reorder|border|eventually|contacts"),
)
# Short words that count only as whole words ("otp" is not in "footprint", "aide" not in "aided").
LINK_WHOLE_WORDS: Final = _words(
    "otp entrar вход aide agb help faq order event trip report legal token kod kód kode mã masuk block blocca"
    " bloker deny estä chặn tolak bloquer bloquear blochează blokkeren blokir indir lataa"
)
