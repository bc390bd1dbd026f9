"""Extractor throughput: typical mails per second on one core, and the 1 MB hostile case.

    .venv/bin/python bench/extract.py

Typical mails are the corpus (`corpus/otp/*.eml`), parsed once up front; the timing covers
`extract()` alone, and separately `parse_message()` + `extract()` (what the sync pays).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gateway.mail.extract import extract  # noqa: E402
from gateway.mail.models import ParsedMessage  # noqa: E402
from gateway.mail.parse import parse_message  # noqa: E402


def rate(fn, items: list, rounds: int = 5) -> float:  # type: ignore[no-untyped-def,type-arg]
    """Median items per second over `rounds` passes."""
    rates = []
    for _ in range(rounds):
        t = time.perf_counter()
        for item in items:
            fn(item)
        rates.append(len(items) / (time.perf_counter() - t))
    return statistics.median(rates)


def hostile() -> dict[str, ParsedMessage]:
    mb = 1024 * 1024

    def html(body: str) -> ParsedMessage:
        return ParsedMessage(None, "", None, (), (), "code", None, (), "", body)

    def text(body: str) -> ParsedMessage:
        return ParsedMessage(None, "", None, (), (), "code", None, (), body, None)

    return {
        "1 MB of digits": text("1" * mb),
        "1 MB of 'code 123456 '": text("code 123456 " * (mb // 12)),
        "1 MB of '-1-1-1'": text("-1" * (mb // 2)),
        "1 MB of <span>1</span>": html("<span>1</span>" * (mb // 14)),
        "1 MB of nested <div>": html("<div>" * (mb // 5)),
        "1 MB of <td>1</td>": html("<table><tr>" + "<td>1</td>" * (mb // 10) + "</tr></table>"),
        "1 MB href": html('<a href="https://x.example/verify?' + "a" * mb + '">Verify</a>'),
        "1 MB of links": html('<a href="https://x.example/verify">Verify</a>' * (mb // 45)),
    }


def main() -> None:
    raws = [p.read_bytes() for p in sorted((ROOT / "corpus" / "otp").glob("*.eml"))]
    if not raws:
        raise SystemExit("no corpus/otp/*.eml: run corpus/otp/build.py first")
    parsed = [parse_message(r) for r in raws]
    size = statistics.median(len(r) for r in raws)
    print(f"{'what':<40}  {'target':<16}  measured")
    what = f"extract(), {len(raws)} corpus mails"
    extracted = rate(extract, parsed)
    print(f"{what:<40}  {'≥ 2,000/s/core':<16}  {extracted:,.0f} mails/s (median size {size / 1024:.1f} KB)")
    both = rate(lambda r: extract(parse_message(r)), raws)
    print(f"{'parse_message() + extract()':<40}  {'-':<16}  {both:,.0f} mails/s")
    for name, message in hostile().items():
        times = []
        for _ in range(3):
            t = time.perf_counter()
            extract(message)
            times.append((time.perf_counter() - t) * 1000)
        print(f"{name:<40}  {'< 100 ms':<16}  {statistics.median(times):.1f} ms")


if __name__ == "__main__":
    main()
