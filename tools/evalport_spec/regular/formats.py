"""Asserted ``format`` values as ECMA-262 patterns, read off what the two validators accept.

Each entry gives, as anchored ECMA-262 patterns (unions of alternatives):

- ``under``: strings python-jsonschema *and* jsonschema-rs both accept (exact);
- ``over``: every string either of them accepts (exact, or a superset where ``over_exact`` is
  false, with ``note`` saying where).

When ``under`` and ``over`` are the same language the format is exact (:meth:`Lang.format`).
The sources, read for this table (python-jsonschema 4.26 ``_format.py`` with
rfc3339-validator 0.1.4; jsonschema-rs 0.61 by differential testing, see
``tests/test_regular_formats.py``):

- ``date``: python-jsonschema needs ``^\\d{4}-\\d{2}-\\d{2}$`` (ASCII) and
  ``date.fromisoformat`` (years 0001-9999, real calendar days); jsonschema-rs also takes year
  0000 (a leap year). RFC 3339 full-date.
- ``date-time`` / ``time``: rfc3339-validator's regex on the upper-cased string, matched with
  ``re.match`` and a ``$`` that also matches before a final ``"\\n"``; no leap second; year 0000
  refused. jsonschema-rs refuses the final ``"\\n"``, takes year 0000, and takes second 60 when
  the time converted to UTC is 23:59 (``over`` takes second 60 at any time: a superset).
  ``time`` is checked by python-jsonschema as ``"1970-01-01T" + value``.
- ``uuid``: python-jsonschema calls ``uuid.UUID`` (which drops braces, ``urn:uuid:`` and every
  hyphen, and lets ``int(..., 16)`` skip spaces and underscores) and then asks for hyphens at
  offsets 8, 13, 18, 23; jsonschema-rs wants exactly 8-4-4-4-12 hex digits (``over``: hyphens
  at those offsets, anything else: a superset).
- ``ipv4``: dotted quad of 0-255 without leading zeros (``ipaddress.IPv4Address``; RFC 2673
  dotted-decimal), the same in both.
- ``json-pointer``: RFC 6901 section 3, the same in both.

Formats not listed (``email``, ``hostname``, ``ipv6``, ``uri``, ``duration``, ...) are either
not regular in practice or read differently by the two validators in ways not modelled here:
:data:`UNSUPPORTED` gives the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

_YEAR1 = r"(?:000[1-9]|00[1-9]\d|0[1-9]\d\d|[1-9]\d\d\d)"  # 0001-9999
_YEAR0 = r"\d{4}"
_LEAP1 = r"(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)"
_LEAP0 = r"(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"
_MONTH_DAY = (r"(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])"
              r"|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)"
              r"|02-(?:0[1-9]|1\d|2[0-8]))")
_DATE1 = rf"(?:{_YEAR1}-{_MONTH_DAY}|{_LEAP1}-02-29)"
_DATE0 = rf"(?:{_YEAR0}-{_MONTH_DAY}|{_LEAP0}-02-29)"
_OFFSET = r"(?:[Zz]|[+-](?:[01]\d|2[0-3]):[0-5]\d)"
_TIME = rf"(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d+)?{_OFFSET}"
_TIME_LEAP = rf"(?:[01]\d|2[0-3]):[0-5]\d:(?:[0-5]\d|60)(?:\.\d+)?{_OFFSET}"
_HEX = "[0-9a-fA-F]"
_OCTET = r"(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)"


@dataclass(frozen=True)
class FormatSpec:
    """One format's languages as unions of anchored ECMA-262 patterns (module docstring)."""

    under: tuple[str, ...]
    over: tuple[str, ...]
    over_exact: bool = True
    note: str = ""


FORMATS: dict[str, FormatSpec] = {
    "date": FormatSpec(
        under=(rf"^{_DATE1}$",), over=(rf"^{_DATE0}$",),
        note="jsonschema-rs also accepts year 0000"),
    "date-time": FormatSpec(
        under=(rf"^{_DATE1}[Tt]{_TIME}$",),
        over=(rf"^{_DATE0}[Tt]{_TIME_LEAP}\n?$",), over_exact=False,
        note="python-jsonschema also accepts a final newline; jsonschema-rs also accepts year "
             "0000 and a leap second at 23:59 UTC (over: second 60 at any time)"),
    "time": FormatSpec(
        under=(rf"^{_TIME}$",), over=(rf"^{_TIME_LEAP}\n?$",), over_exact=False,
        note="python-jsonschema also accepts a final newline; jsonschema-rs also accepts a "
             "leap second at 23:59 UTC (over: second 60 at any time)"),
    "uuid": FormatSpec(
        under=(rf"^{_HEX}{{8}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{4}}-{_HEX}{{12}}$",),
        over=(r"^[\s\S]{8}-[\s\S]{4}-[\s\S]{4}-[\s\S]{4}-",), over_exact=False,
        note="python-jsonschema also accepts extra hyphens, braces, spaces and underscores "
             "(over: hyphens at offsets 8, 13, 18, 23, anything else)"),
    "ipv4": FormatSpec(under=(rf"^{_OCTET}(?:\.{_OCTET}){{3}}$",),
                       over=(rf"^{_OCTET}(?:\.{_OCTET}){{3}}$",)),
    "json-pointer": FormatSpec(under=(r"^(?:/(?:[^~/]|~[01])*)*$",),
                               over=(r"^(?:/(?:[^~/]|~[01])*)*$",)),
}

UNSUPPORTED: dict[str, str] = {
    "email": "python-jsonschema accepts any string with '@'; jsonschema-rs follows RFC 5322",
    "idn-email": "python-jsonschema accepts any string with '@'; jsonschema-rs follows RFC 6531",
    "hostname": "the validators' hostname rules (fqdn vs jsonschema-rs) are not modelled",
    "idn-hostname": "IDNA rules are not regular in any practical size",
    "ipv6": "the validators' IPv6 grammars (zone ids, embedded IPv4) are not modelled",
    "uri": "RFC 3986 as read by rfc3987/rfc3986-validator vs jsonschema-rs is not modelled",
    "uri-reference": "RFC 3986 as read by the two validators is not modelled",
    "iri": "RFC 3987 as read by the two validators is not modelled",
    "iri-reference": "RFC 3987 as read by the two validators is not modelled",
    "uri-template": "RFC 6570 as read by the two validators is not modelled",
    "relative-json-pointer": "the two validators' relative JSON pointer rules are not modelled",
    "duration": "python-jsonschema (isoduration) accepts fractions jsonschema-rs refuses",
    "regex": "the set of valid regular expressions is not a regular language",
}
