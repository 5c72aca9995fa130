"""The principal of a TLS client certificate, as Kafka's DefaultKafkaPrincipalBuilder makes it:
the certificate's subject as Java's X500Principal.getName() writes it (RFC 2253: the most specific
RDN first, CN/C/L/ST/O/OU/STREET/DC/UID by keyword, any other attribute as OID=#hex of its DER
value), then mapped by ssl.principal.mapping.rules (Kafka's SslPrincipalMapper: DEFAULT keeps the
DN, RULE:pattern/replacement/[LU] rewrites a DN the pattern matches whole, the first rule that
applies wins, no rule applying fails the authentication). Pure: DER bytes in, a name out."""

from __future__ import annotations

import re
from dataclasses import dataclass

# the attribute keywords Java's RFC 2253 form writes by name (sun.security.x509.AVAKeyword)
_KEYWORDS = {"2.5.4.3": "CN", "2.5.4.6": "C", "2.5.4.7": "L", "2.5.4.8": "ST", "2.5.4.10": "O", "2.5.4.11": "OU",
             "2.5.4.9": "STREET", "0.9.2342.19200300.100.1.25": "DC", "0.9.2342.19200300.100.1.1": "UID"}
# DER string types and how Java's getName() reads their bytes (a BMPString byte by byte, as it does)
_STRINGS = {12: "utf-8", 19: "latin-1", 22: "latin-1", 20: "latin-1", 26: "latin-1", 30: "latin-1"}
_ESCAPED = set(',=+<>#;"\\')


class NoMatchingRule(ValueError):
    """No ssl.principal.mapping.rules rule applies to a DN (Kafka fails the authentication)."""


def _der(data: bytes, pos: int) -> tuple[int, int, int]:
    """(tag, start of contents, end of contents) of the DER element at ``pos``."""
    tag = data[pos]
    n = data[pos + 1]
    pos += 2
    if n & 0x80:
        count = n & 0x7F
        n = int.from_bytes(data[pos:pos + count], "big")
        pos += count
    if pos + n > len(data):
        raise ValueError("truncated DER element")
    return tag, pos, pos + n


def _children(data: bytes, start: int, end: int):
    while start < end:
        tag, s, e = _der(data, start)
        yield tag, start, s, e
        start = e


def _oid(raw: bytes) -> str:
    parts, value = [], 0
    for b in raw:
        value = (value << 7) | (b & 0x7F)
        if not b & 0x80:
            parts.append(value)
            value = 0
    first = min(parts[0] // 40, 2)
    return ".".join(map(str, [first, parts[0] - 40 * first, *parts[1:]]))


def _escape(value: str) -> str:
    out = []
    for ch in value:
        if ch in _ESCAPED:
            out.append("\\" + ch)
        elif ch == "\0":
            out.append("\\00")
        else:
            out.append(ch)
    text = "".join(out)
    if text.startswith(" "):
        text = "\\" + text
    if text.endswith(" ") and not text.endswith("\\ "):
        text = text[:-1] + "\\ "
    return text


def dn_of_name(name_der: bytes) -> str:
    """The RFC 2253 string of a DER X.501 Name, as Java's X500Principal.getName()."""
    tag, start, end = _der(name_der, 0)
    if tag != 0x30:
        raise ValueError("a Name is a SEQUENCE")
    rdns = []
    for _, _, s, e in _children(name_der, start, end):  # each RDN: a SET of AttributeTypeAndValue
        avas = []
        for _, _, as_, ae in _children(name_der, s, e):
            (_, _, os_, oe), (vtag, vpos, vs, ve) = list(_children(name_der, as_, ae))[:2]
            oid = _oid(name_der[os_:oe])
            keyword = _KEYWORDS.get(oid)
            encoding = _STRINGS.get(vtag)
            if keyword is not None and encoding is not None:
                avas.append(f"{keyword}={_escape(name_der[vs:ve].decode(encoding, 'replace'))}")
            else:
                avas.append(f"{keyword or oid}=#{name_der[vpos:ve].hex()}")
        rdns.append("+".join(avas))
    return ",".join(reversed(rdns))


def subject_dn(cert_der: bytes) -> str:
    """The subject DN of a DER certificate (Certificate -> TBSCertificate -> subject)."""
    _, start, end = _der(cert_der, 0)
    _, tbs_start, tbs_end = _der(cert_der, start)
    fields = list(_children(cert_der, tbs_start, tbs_end))
    if fields and fields[0][0] == 0xA0:  # [0] version
        fields = fields[1:]
    # serialNumber, signature, issuer, validity, subject
    _, whole, _, e = fields[4]
    return dn_of_name(cert_der[whole:e])


# Kafka's SslPrincipalMapper grammar: DEFAULT, RULE:pattern/replacement/[LU], separated by commas
_RULE = r"(DEFAULT)|RULE:((?:\\.|[^\\/])*)/((?:\\.|[^\\/])*)/([LU]?).*?|(.*?)"
_SPLITTER = re.compile(r"\s*(" + _RULE + r")\s*(,\s*|$)")
_PARSER = re.compile(_RULE)
_BACKREF = re.compile(r"\$(\d+)")


@dataclass(frozen=True)
class _Rule:
    """One rule of ssl.principal.mapping.rules."""
    pattern: re.Pattern | None  # None: DEFAULT
    replacement: str = ""
    case: str = ""  # "L", "U" or ""

    def apply(self, dn: str) -> str | None:
        if self.pattern is None:
            return dn
        if self.pattern.fullmatch(dn) is None:
            return None
        groups = self.pattern.groups
        replacement = _escape_literal_back_references(self.replacement, groups)
        # Java's replaceAll over the DN (a pattern that also matches the empty end replaces it too)
        out = self.pattern.sub(lambda m: _java_expand(replacement, m), dn)
        return out.lower() if self.case == "L" else out.upper() if self.case == "U" else out


def _escape_literal_back_references(value: str, groups: int) -> str:
    """Kafka's escapeLiteralBackReferences: $n past the pattern's groups (after dropping trailing
    digits down to 10) is escaped, at the positions of the unescaped text, as Kafka does."""
    if groups == 0:
        return value
    out = value
    for m in _BACKREF.finditer(value):
        digits = m.group(1)
        if digits.startswith("0"):
            continue
        n = int(digits)
        while n > groups and n >= 10:
            n //= 10
        if n > groups:
            at = m.start(1) - 1
            out = out[:at] + "\\" + out[at:]
    return out


def _java_expand(replacement: str, m: re.Match) -> str:
    """Java's Matcher.appendReplacement: \\x is x, $n the longest group number that exists; a group
    that does not exist fails (the authentication fails with it, as in Kafka)."""
    out, i = [], 0
    while i < len(replacement):
        ch = replacement[i]
        if ch == "\\" and i + 1 < len(replacement):
            out.append(replacement[i + 1])
            i += 2
        elif ch == "$":
            j = i + 1
            if j >= len(replacement) or not replacement[j].isdigit():
                raise NoMatchingRule(f"Illegal group reference in {replacement!r}")
            n = int(replacement[j])
            j += 1
            while j < len(replacement) and replacement[j].isdigit() and n * 10 + int(replacement[j]) <= m.re.groups:
                n = n * 10 + int(replacement[j])
                j += 1
            if n > m.re.groups:
                raise NoMatchingRule(f"No group {n}")
            out.append(m.group(n) or "")
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


class SslPrincipalMapper:
    def __init__(self, rules: str | None):
        text = "DEFAULT" if rules is None else rules
        self.rules: list[_Rule] = []
        for m in _SPLITTER.finditer(text.strip()):
            rule = m.group(1)
            p = _PARSER.match(rule)
            if p is None or p.end() != len(rule):
                raise ValueError(f"Invalid rule: `{rule}`, unmatched substring: `{rule[p.end() if p else 0:]}`")
            if p.group(1) is not None:
                self.rules.append(_Rule(None))
            elif p.group(2) is not None:
                self.rules.append(_Rule(re.compile(p.group(2)), p.group(3), p.group(4)))
            if m.end() >= len(text.strip()):
                break

    def name(self, dn: str) -> str:
        for rule in self.rules:
            out = rule.apply(dn)
            if out is not None:
                return out
        raise NoMatchingRule(f"No rules apply to {dn}")
