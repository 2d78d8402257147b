#!/usr/bin/env python3
"""Writes the seed corpora under fuzz/corpus/<target>/ from the demo site and the spec's
examples. Seeds are named by content hash, so rerunning adds nothing twice; inputs
that once crashed a target are kept there as well (named regression-*)."""

import hashlib
import json
import pathlib
import struct
import tomllib

HERE = pathlib.Path(__file__).resolve().parent
DEMO = HERE.parent / "config" / "sites" / "demo"

# The order of BlockKind::ALL and Currency::ALL.
BLOCK_KINDS = ["text", "image", "video", "embed", "map", "form", "newsletter", "donation-button",
               "accordion", "marquee", "scaled-text", "button", "member-area", "summary", "gallery",
               "audio", "calendar", "chart", "search", "tour-dates", "restaurant-booking", "menu-tabs",
               "social-sharing", "product", "cart"]
CURRENCIES = ["EUR", "USD", "AUD", "NOK", "CAD", "NZD", "DKK", "GBP", "HKD", "CHF", "MXN", "SGD", "SEK",
              "CZK", "ILS", "PHP", "RUB", "PLN", "THB", "MYR", "ARS", "BRL", "COP", "IDR", "INR", "JPY", "ZAR"]
# The files site_loader may replace, in its order.
SITE_FILES = ["site.toml", "navigation.toml", "pages/home.toml", "pages/contact.toml",
              "pages/gallery-designs.toml", "collections/shop/collection.toml",
              "collections/shop/items/house-blend.toml", "collections/events/collection.toml",
              "collections/events/items/saturday-market.toml", "collections/blog/items/summer-garden.toml"]


def seed(target, data):
    if isinstance(data, str):
        data = data.encode()
    folder = HERE / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    (folder / hashlib.sha1(data).hexdigest()[:16]).write_bytes(data)


def visitor_cookie():
    for cvr in ["ab_c-1|1|2|3|4", "0f8fad5b-d9cb-469f-a165-70867728950e|1700000000000|1700000000000|1700000000000|1",
                "v|1|2|3|4|5", "a b|1|2|3|4", "a|0|2|3|4", "a|1|2|99999999999999999999999|4", "|||"]:
        seed("visitor_cookie", cvr)
        seed("visitor_cookie", cvr + "\n1700000000000")
        seed("visitor_cookie", cvr + "\nsoon")


def money_format():
    for i, _ in enumerate(CURRENCIES):
        for minor in [0, 1, -1, 1250, 123_456_700, 99_999_999_999_999_999, -99_999_999_999_999, 1 << 53]:
            seed("money_format", bytes([0, i, 3]) + struct.pack("<q", minor))
    seed("money_format", bytes([0, 25, 0]) + struct.pack("<q", 999_999_999_999_999))
    for value in [{"currencyCode": "USD", "value": 12.5}, {"currencyCode": "jpy", "value": 1500},
                  {"currencyCode": "EUR", "value": 19.99}, {"currencyCode": "XYZ", "value": 1},
                  {"currencyCode": "USD", "value": "1"}, {"value": 1}, 12.5, "$12", None,
                  {"currencyCode": "USD", "value": 1e300}]:
        seed("money_format", b"\x01" + json.dumps(value).encode())


def toml_files():
    return sorted(p for p in DEMO.rglob("*.toml"))


def block_json():
    for path in toml_files():
        table = tomllib.loads(path.read_text())
        blocks = list(table.get("blocks", []))
        blocks += list(table.get("newsletter", {}).get("blocks", [])) if isinstance(table.get("newsletter"), dict) else []
        for block in blocks:
            kind = block.get("kind")
            if kind not in BLOCK_KINDS:
                continue
            data = {k: v for k, v in block.items() if k not in ("kind", "id")}
            seed("block_json", bytes([BLOCK_KINDS.index(kind)]) + json.dumps(data, default=str).encode())
    seed("block_json", bytes([BLOCK_KINDS.index("summary")]) + b'{"collection":"events","design":"list"}')


def form_payload():
    contact = {"name": ["Ada", "Lovelace"], "email": "ada@example.com", "message": "Hello"}
    payloads = [
        {"key": "k1", "formId": "contact", "form": json.dumps(contact), "pageTitle": "Contact",
         "pageId": "p1", "contentSource": "c", "pagePath": "/contact"},
        {"formId": "contact", "form": contact, "isOverlayForm": "true"},
        {"formId": "newsletter", "form": {"email": "someone@example.com"}},
        {"formId": "newsletter", "form": "{\"email\": \"bad\"}"},
        {"formId": "", "form": {}},
        {"formId": 12, "form": [1, 2]},
        {"formId": "contact", "form": {"phone": ["1", "555", "123", "4567"], "likert": {"q": "2"}}},
    ]
    for payload in payloads:
        seed("form_payload", b"\x00" + json.dumps(payload).encode())
    for pairs in ["email=a%40b.co&name-First=Ada&name-Last=Lovelace", "email=someone@example.com",
                  "address-Zip=1234&address-Country=US", "likert-0=2&likert-1=-3"]:
        seed("form_payload", b"\x01" + pairs.encode())
    contact_toml = tomllib.loads((DEMO / "pages" / "contact.toml").read_text())
    for block in contact_toml.get("blocks", []):
        if block.get("kind") != "form":
            continue
        values = {}
        for field in block.get("fields", []):
            kind, fid = field.get("type"), field.get("id")
            options = field.get("options", [])
            values[fid] = {
                "name": ["Ada", "Lovelace"], "email": "ada@example.com", "phone": ["", "555", "123", "4567"],
                "address": ["1 Main St", "", "Town", "CA", "94110", "US"], "date": ["1", "2", "2024"],
                "time": ["10", "30", "", "AM"], "radio": options[0] if options else "",
                "checkbox": options[:1], "select": options[0] if options else "",
                "likert": {q: "1" for q in options}, "section": None,
            }.get(kind, "text")
        seed("form_payload", b"\x00" + json.dumps({"formId": block.get("formId"), "form": values}).encode())


def site_loader():
    for i, name in enumerate(SITE_FILES):
        text = (DEMO / name).read_bytes()
        seed("site_loader", bytes([i]) + text)
        seed("site_loader", bytes([i]) + text[: len(text) // 2])


if __name__ == "__main__":
    visitor_cookie()
    money_format()
    block_json()
    form_payload()
    site_loader()
