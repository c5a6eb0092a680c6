"""Parse an ECMA-262 regular expression (the regular fragment) into a small syntax tree.

The grammar is ECMA-262 22.2.1 (Patterns) read with the ``u`` flag, as JSON Schema 2020-12
Core 6.4 recommends, plus Annex B's tolerance of identity escapes of non-alphanumeric
characters (``\\-``, ``\\:``, ``\\"``) and of a lone ``]`` or ``}``, which every validator reads as
the literal character. No flags: ``^``/``$`` assert the start/end of input, ``.`` excludes the
line terminators.

Tree nodes are tuples:

- ``("chars", Charset)``: one code point from the set;
- ``("cat", (node, ...))``: concatenation (``("cat", ())`` is the empty string);
- ``("alt", (node, ...))``: alternation;
- ``("rep", node, min, max)``: repetition, ``max`` ``None`` for unbounded;
- ``("bol",)`` / ``("eol",)``: the assertions ``^`` and ``$``.

Non-regular constructs raise :class:`Unsupported` naming them; syntax errors raise
:class:`InvalidPattern` with the offset.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from . import charset as cs
from .errors import InvalidPattern, Unsupported

SYNTAX = set("^$\\.*+?()[]{}|/")
_CONTROL = {"f": 0x0C, "n": 0x0A, "r": 0x0D, "t": 0x09, "v": 0x0B}
_CLASS = {"d": cs.DIGIT, "w": cs.WORD, "s": cs.SPACE}
EMPTY = ("cat", ())


def parse(src: str):
    """Parse ``src``; return the tree's root node (see the module docstring)."""
    p = _Parser(src)
    node = p.disjunction()
    if p.i < len(src):  # only an unmatched ')' stops a disjunction early
        p.fail("unmatched ')'")
    return node


class _Parser:
    def __init__(self, src: str) -> None:
        self.s = src
        self.i = 0

    # -- helpers ------------------------------------------------------------------------
    def fail(self, why: str, at: int | None = None):
        raise InvalidPattern(f"not an ECMA-262 regular expression: {why} at offset "
                             f"{self.i if at is None else at} of {self.s!r}")

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def eat(self, text: str) -> bool:
        if self.s.startswith(text, self.i):
            self.i += len(text)
            return True
        return False

    # -- structure ----------------------------------------------------------------------
    def disjunction(self):
        alts = [self.alternative()]
        while self.eat("|"):
            alts.append(self.alternative())
        return alts[0] if len(alts) == 1 else ("alt", tuple(alts))

    def alternative(self):
        items = []
        while self.i < len(self.s) and self.peek() not in "|)":
            items.append(self.term())
        return items[0] if len(items) == 1 else ("cat", tuple(items))

    def term(self):
        start = self.i
        c = self.peek()
        if c == "^":
            self.i += 1
            atom, assertion = ("bol",), True
        elif c == "$":
            self.i += 1
            atom, assertion = ("eol",), True
        else:
            atom, assertion = self.atom()
        q = self.quantifier()
        if q is None:
            return atom
        if assertion:
            self.fail("nothing to repeat", start)
        lo, hi = q
        return ("rep", atom, lo, hi)

    def quantifier(self):
        c = self.peek()
        if c in ("*", "+", "?"):
            self.i += 1
            q = {"*": (0, None), "+": (1, None), "?": (0, 1)}[c]
        elif c == "{":
            q = self.braces()
            if q is None:
                self.fail("'{' that does not start a quantifier")
        else:
            return None
        self.eat("?")  # a lazy quantifier matches the same language
        if self.peek() in ("*", "+", "?") or (self.peek() == "{" and self._brace_ahead()):
            self.fail("nothing to repeat")
        return q

    def _brace_ahead(self) -> bool:
        save = self.i
        try:
            return self.braces() is not None
        finally:
            self.i = save

    def braces(self):
        """``{n}``, ``{n,}`` or ``{n,m}`` at the cursor; None (cursor kept) if not one."""
        save = self.i
        self.i += 1
        lo = self.digits()
        if lo is None:
            self.i = save
            return None
        hi: int | None = lo
        if self.eat(","):
            hi = self.digits()
        if not self.eat("}"):
            self.i = save
            return None
        if hi is not None and hi < lo:
            self.fail(f"numbers out of order in {{{lo},{hi}}}", save)
        return lo, hi

    def digits(self) -> int | None:
        j = self.i
        while self.peek().isascii() and self.peek().isdigit():
            self.i += 1
        return int(self.s[j:self.i]) if self.i > j else None

    def atom(self):
        """Return ``(node, is_assertion)``."""
        c = self.peek()
        start = self.i
        if c == ".":
            self.i += 1
            return ("chars", cs.DOT), False
        if c == "[":
            return ("chars", self.char_class()), False
        if c == "(":
            return self.group(), False
        if c == "\\":
            return self.atom_escape()
        if c in ("*", "+", "?"):
            self.fail("nothing to repeat")
        if c == "{":
            if self._brace_ahead():
                self.fail("nothing to repeat")
            self.fail("'{' that does not start a quantifier")
        if c == ")":
            self.fail("unmatched ')'", start)
        self.i += 1
        return ("chars", ((ord(c), ord(c)),)), False

    def group(self):
        start = self.i
        self.i += 1
        if self.eat("?"):
            if self.eat(":"):
                pass
            elif self.eat("="):
                raise Unsupported(f"lookahead (?=...) at offset {start} of {self.s!r} is not "
                                  "a regular construct")
            elif self.eat("!"):
                raise Unsupported(f"negative lookahead (?!...) at offset {start} of {self.s!r} "
                                  "is not a regular construct")
            elif self.eat("<="):
                raise Unsupported(f"lookbehind (?<=...) at offset {start} of {self.s!r} is not "
                                  "a regular construct")
            elif self.eat("<!"):
                raise Unsupported(f"negative lookbehind (?<!...) at offset {start} of "
                                  f"{self.s!r} is not a regular construct")
            elif self.eat("<"):
                self.group_name(start)
            elif self.peek() == "P":
                raise Unsupported(f"Python group syntax (?P...) at offset {start} of {self.s!r}"
                                  " is not ECMA-262")
            else:
                raise Unsupported(f"inline modifier group (?{self.peek()}...) at offset {start}"
                                  f" of {self.s!r} is not supported")
        node = self.disjunction()
        if not self.eat(")"):
            self.fail("missing ')'", start)
        return node

    def group_name(self, start: int) -> None:
        j = self.s.find(">", self.i)
        name = self.s[self.i:j] if j >= 0 else ""
        if not name or not (name[0].isalpha() or name[0] in "$_") or not all(
                ch.isalnum() or ch in "$_" for ch in name):
            self.fail("bad group name", start)
        self.i = j + 1

    # -- escapes ------------------------------------------------------------------------
    def atom_escape(self):
        start = self.i
        self.i += 1
        c = self.peek()
        if c == "":
            self.fail("'\\' at end of pattern", start)
        if c == "b":
            raise Unsupported(f"word boundary assertion \\b at offset {start} of {self.s!r} "
                              "is not supported")
        if c == "B":
            raise Unsupported(f"non-word-boundary assertion \\B at offset {start} of "
                              f"{self.s!r} is not supported")
        if c.isascii() and c.isdigit() and c != "0":
            raise Unsupported(f"backreference \\{c} at offset {start} of {self.s!r} is not a "
                              "regular construct")
        if c == "k":
            raise Unsupported(f"named backreference \\k<...> at offset {start} of {self.s!r} "
                              "is not a regular construct")
        got = self.class_escape(start)
        return ("chars", got), False

    def class_escape(self, start: int, in_class: bool = False) -> cs.Charset:
        """The escape after a ``\\`` (cursor on the letter), as a charset."""
        c = self.peek()
        self.i += 1
        if c.lower() in _CLASS:
            base = _CLASS[c.lower()]
            return base if c.islower() else cs.complement(base)
        if c in ("p", "P"):
            got = self.property_escape(start)
            return got if c == "p" else cs.complement(got)
        if in_class and c == "b":
            return ((8, 8),)
        if in_class and c == "-":
            return ((0x2D, 0x2D),)
        cp = self.char_escape(c, start)
        return ((cp, cp),)

    def char_escape(self, c: str, start: int) -> int:
        if c in _CONTROL:
            return _CONTROL[c]
        if c == "c":
            letter = self.peek()
            if letter.isascii() and letter.isalpha():
                self.i += 1
                return ord(letter) % 32
            self.fail("\\c without an ASCII letter", start)
        if c == "0":
            if self.peek().isascii() and self.peek().isdigit():
                self.fail("octal escape", start)
            return 0
        if c == "x":
            return self.hex_digits(2, start)
        if c == "u":
            if self.eat("{"):
                j = self.s.find("}", self.i)
                body = self.s[self.i:j] if j > self.i else ""
                if not body or any(ch not in "0123456789abcdefABCDEF" for ch in body):
                    self.fail("bad \\u{...} escape", start)
                cp = int(body, 16)
                if cp > cs.MAX_CP:
                    self.fail("code point above U+10FFFF", start)
                self.i = j + 1
                return cp
            cp = self.hex_digits(4, start)
            if 0xD800 <= cp <= 0xDBFF and self.s.startswith("\\u", self.i):
                save = self.i
                self.i += 2
                try:
                    low = self.hex_digits(4, save)
                except InvalidPattern:
                    low = -1
                if 0xDC00 <= low <= 0xDFFF:  # a surrogate pair is one code point (u flag)
                    return 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00)
                self.i = save
            return cp
        if c in SYNTAX or (c.isascii() and not c.isalnum() and c != "_") or (
                not c.isascii() and not c.isalnum()):
            return ord(c)  # IdentityEscape (u flag: SyntaxCharacter and '/'; Annex B: more)
        raise Unsupported(f"escape \\{c} at offset {start} of {self.s!r} has no agreed "
                          "meaning (ECMA-262 rejects it with the u flag)")

    def hex_digits(self, n: int, start: int) -> int:
        body = self.s[self.i:self.i + n]
        if len(body) < n or any(ch not in "0123456789abcdefABCDEF" for ch in body):
            self.fail("bad hexadecimal escape", start)
        self.i += n
        return int(body, 16)

    def property_escape(self, start: int) -> cs.Charset:
        if not self.eat("{"):
            self.fail("\\p without {...}", start)
        j = self.s.find("}", self.i)
        if j < 0:
            self.fail("unterminated \\p{...}", start)
        body = self.s[self.i:j]
        self.i = j + 1
        name = body.split("=", 1)[1] if body.startswith(("General_Category=", "gc=")) else body
        cats = _GC_ALIASES.get(name)
        if cats is None:
            raise Unsupported(f"Unicode property escape \\p{{{body}}} at offset {start} of "
                              f"{self.s!r} is not supported (only General_Category values)")
        return _general_category(cats)

    # -- character classes --------------------------------------------------------------
    def char_class(self) -> cs.Charset:
        start = self.i
        self.i += 1
        negate = self.eat("^")
        parts: list[cs.Charset] = []
        while True:
            if self.i >= len(self.s):
                self.fail("unterminated character class", start)
            if self.eat("]"):
                break
            lo_at = self.i
            lo = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.i += 1
                hi_at = self.i
                hi = self.class_atom()
                if len(lo) != 1 or lo[0][0] != lo[0][1] or len(hi) != 1 or hi[0][0] != hi[0][1]:
                    self.fail("character class escape used as a range end", lo_at)
                if lo[0][0] > hi[0][0]:
                    self.fail("range out of order in character class", hi_at)
                parts.append(((lo[0][0], hi[0][0]),))
            else:
                parts.append(lo)
        got = cs.union(*parts)
        return cs.complement(got) if negate else got

    def class_atom(self) -> cs.Charset:
        start = self.i
        c = self.peek()
        if c == "\\":
            self.i += 1
            if self.peek() == "":
                self.fail("'\\' at end of pattern", start)
            if self.peek() == "B" or (self.peek().isascii() and self.peek().isdigit()
                                      and self.peek() != "0"):
                self.fail(f"\\{self.peek()} inside a character class", start)
            if self.peek() == "k":
                self.fail("\\k inside a character class", start)
            return self.class_escape(start, in_class=True)
        self.i += 1
        return ((ord(c), ord(c)),)


# General_Category values (Unicode's PropertyValueAliases.txt), short and long names.
_GC_GROUPS = {
    "L": "Lu Ll Lt Lm Lo", "LC": "Lu Ll Lt", "M": "Mn Mc Me", "N": "Nd Nl No",
    "P": "Pc Pd Ps Pe Pi Pf Po", "S": "Sm Sc Sk So", "Z": "Zs Zl Zp", "C": "Cc Cf Cs Co Cn",
}
_GC_LONG = {
    "Letter": "L", "Cased_Letter": "LC", "Uppercase_Letter": "Lu", "Lowercase_Letter": "Ll",
    "Titlecase_Letter": "Lt", "Modifier_Letter": "Lm", "Other_Letter": "Lo", "Mark": "M",
    "Nonspacing_Mark": "Mn", "Spacing_Mark": "Mc", "Enclosing_Mark": "Me", "Number": "N",
    "Decimal_Number": "Nd", "digit": "Nd", "Letter_Number": "Nl", "Other_Number": "No",
    "Punctuation": "P", "punct": "P", "Connector_Punctuation": "Pc", "Dash_Punctuation": "Pd",
    "Open_Punctuation": "Ps", "Close_Punctuation": "Pe", "Initial_Punctuation": "Pi",
    "Final_Punctuation": "Pf", "Other_Punctuation": "Po", "Symbol": "S", "Math_Symbol": "Sm",
    "Currency_Symbol": "Sc", "Modifier_Symbol": "Sk", "Other_Symbol": "So", "Separator": "Z",
    "Space_Separator": "Zs", "Line_Separator": "Zl", "Paragraph_Separator": "Zp", "Other": "C",
    "Control": "Cc", "cntrl": "Cc", "Format": "Cf", "Surrogate": "Cs", "Private_Use": "Co",
    "Unassigned": "Cn", "Combining_Mark": "M",
}
_GC_LEAVES = set(" ".join(_GC_GROUPS.values()).split())
_GC_ALIASES: dict[str, frozenset[str]] = {}
for _short in _GC_LEAVES:
    _GC_ALIASES[_short] = frozenset([_short])
for _short, _leaves in _GC_GROUPS.items():
    _GC_ALIASES[_short] = frozenset(_leaves.split())
for _long, _short in _GC_LONG.items():
    _GC_ALIASES[_long] = _GC_ALIASES[_short]


@lru_cache(maxsize=64)
def _general_category(cats: frozenset[str]) -> cs.Charset:
    """Code points whose General_Category (Python's ``unicodedata``) is in ``cats``."""
    out: list[tuple[int, int]] = []
    for cp in range(cs.MAX_CP + 1):
        if unicodedata.category(chr(cp)) in cats:
            if out and out[-1][1] == cp - 1:
                out[-1] = (out[-1][0], cp)
            else:
                out.append((cp, cp))
    return tuple(out)
