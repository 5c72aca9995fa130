#!/usr/bin/env python3
"""Generate odradek/wire/messages from Kafka's JSON message specs.

Usage: python tools/gen_wire.py SPEC_DIR [OUT_DIR]

SPEC_DIR is a folder holding message/, metadata/, raft/, group-coordinator/,
transaction-coordinator/ (`python -m apache_kafka specs` extracts Kafka 4.3.0's out of
its jars and prints the folder). Every JSON file becomes one
Python module with a class per struct and one specialised encode/decode function
per distinct wire layout (versions whose layout is identical share a function).
Only names, types, versions, tags and defaults are read from the specs.
"""

from __future__ import annotations

import json
import keyword
import os
import re
import sys
from dataclasses import dataclass, field

SUBDIRS = ("message", "metadata", "raft", "group-coordinator", "transaction-coordinator")
MAX_VERSION = 0x7FFF

FIXED = {
    "bool": ("?", 1),
    "int8": ("b", 1),
    "int16": ("h", 2),
    "uint16": ("H", 2),
    "int32": ("i", 4),
    "uint32": ("I", 4),
    "int64": ("q", 8),
    "float64": ("d", 8),
    "uuid": ("16s", 16),
}
VARIABLE = ("string", "bytes", "records")
# structs an array also takes already encoded (base.Encoded, from Message.encoded(version)): a
# broker caches their bytes (a Metadata response's topics, one encoding per topic and version)
PRE_ENCODABLE = frozenset({"MetadataResponseTopic", "CreatableTopicResult"})
# requests whose top-level arrays can hold thousands of entries: their decoder is a generator that
# yields after each entry of such an array that ends DECODE_STEP_BYTES or more past the last yield
# (Message.decode_steps: a broker decodes a large one in steps of a few ms whatever its entries'
# shape, serving other clients between them); decode_from runs it through (base.whole)
STEPPED = frozenset({"CreateTopicsRequest", "DeleteTopicsRequest", "MetadataRequest", "CreatePartitionsRequest",
                     "DescribeConfigsRequest", "IncrementalAlterConfigsRequest", "LeaveGroupRequest",
                     "OffsetCommitRequest", "OffsetFetchRequest", "ListOffsetsRequest", "DeleteRecordsRequest",
                     "AlterConfigsRequest", "ElectLeadersRequest", "AlterPartitionReassignmentsRequest",
                     "OffsetDeleteRequest", "OffsetForLeaderEpochRequest", "DescribeProducersRequest",
                     "DescribeTransactionsRequest", "DescribeGroupsRequest", "DeleteGroupsRequest",
                     "DescribeLogDirsRequest", "ListPartitionReassignmentsRequest", "ConsumerGroupDescribeRequest",
                     "DescribeTopicPartitionsRequest", "TxnOffsetCommitRequest", "FetchRequest",
                     "ShareGroupDescribeRequest", "StreamsGroupDescribeRequest",
                     "CreateAclsRequest", "DeleteAclsRequest", "AddPartitionsToTxnRequest",
                     "ListTransactionsRequest", "DescribeClientQuotasRequest", "AlterClientQuotasRequest"})
DECODE_STEP_BYTES = 16 * 1024
# responses whose arrays can hold thousands of entries (a topic's partitions): their encoder also
# comes as a generator that yields every ENCODE_STEP_ENTRIES entries of structs, inside an
# entry's own arrays too (Message.encode_parts_steps: a broker encodes a large answer in steps)
STEPPED_RESPONSES = frozenset({
    "OffsetCommitResponse", "OffsetFetchResponse", "ListOffsetsResponse", "OffsetForLeaderEpochResponse",
    "DeleteRecordsResponse", "ElectLeadersResponse", "AlterPartitionReassignmentsResponse",
    "ListPartitionReassignmentsResponse", "DescribeProducersResponse", "DescribeTransactionsResponse",
    "OffsetDeleteResponse", "DescribeLogDirsResponse", "DescribeGroupsResponse", "ListGroupsResponse",
    "DeleteGroupsResponse", "ConsumerGroupDescribeResponse", "ShareGroupDescribeResponse",
    "StreamsGroupDescribeResponse", "MetadataResponse", "DescribeTopicPartitionsResponse", "FetchResponse",
    "ProduceResponse", "TxnOffsetCommitResponse", "AlterConfigsResponse", "IncrementalAlterConfigsResponse",
    "DescribeConfigsResponse", "CreateTopicsResponse", "DeleteTopicsResponse", "CreatePartitionsResponse",
    "LeaveGroupResponse", "DescribeAclsResponse", "CreateAclsResponse", "DeleteAclsResponse",
    "ListTransactionsResponse", "AddPartitionsToTxnResponse", "DescribeClientQuotasResponse",
    "AlterClientQuotasResponse"})
ENCODE_STEP_ENTRIES = 1000


# ---------------------------------------------------------------- parsing

def strip_comments(text: str) -> str:
    out = []
    i, n = 0, len(text)
    in_str = False
    while i < n:
        c = text[i]
        if in_str:
            out.append(c)
            if c == "\\":
                out.append(text[i + 1])
                i += 2
                continue
            if c == '"':
                in_str = False
        elif c == '"':
            in_str = True
            out.append(c)
        elif c == "/" and i + 1 < n and text[i + 1] == "/":
            while i < n and text[i] != "\n":
                i += 1
            continue
        else:
            out.append(c)
        i += 1
    return "".join(out)


def parse_versions(spec: str | None) -> tuple[int, int]:
    """'3-13' -> (3, 13); '9+' -> (9, MAX); 'none' -> (-1, -1)."""
    if spec is None or spec == "none" or spec == "":
        return (-1, -1)
    spec = spec.strip()
    if spec.endswith("+"):
        return (int(spec[:-1]), MAX_VERSION)
    if "-" in spec:
        lo, hi = spec.split("-")
        return (int(lo), int(hi))
    v = int(spec)
    return (v, v)


def in_range(v: int, r: tuple[int, int]) -> bool:
    return r[0] >= 0 and r[0] <= v <= r[1]


def snake(name: str) -> str:
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()
    if keyword.iskeyword(s) or s in ("type", "id", "hash", "format", "filter", "max", "min"):
        # builtins are legal attribute names; only keywords need escaping
        if keyword.iskeyword(s):
            s += "_"
    return s


def module_name(name: str) -> str:
    return snake(name)


@dataclass
class Field:
    name: str
    attr: str
    type: str            # element type for arrays
    is_array: bool
    versions: tuple
    nullable: tuple
    tag: int | None
    tagged: tuple
    default: object
    flexible_none: bool
    struct: "Struct | None" = None

    def present(self, v):
        return in_range(v, self.versions)

    def is_tagged(self, v):
        return self.tag is not None and in_range(v, self.tagged)

    def is_nullable(self, v):
        return in_range(v, self.nullable)


@dataclass
class Struct:
    name: str
    fields: list = field(default_factory=list)
    versions: tuple = (0, MAX_VERSION)


class Spec:
    def __init__(self, path: str):
        with open(path) as f:
            self.raw = json.loads(strip_comments(f.read()))
        self.name = self.raw["name"]
        self.kind = self.raw["type"]
        self.api_key = self.raw.get("apiKey")
        self.valid = parse_versions(self.raw.get("validVersions"))
        self.flexible = parse_versions(self.raw.get("flexibleVersions"))
        self.structs: dict[str, Struct] = {}
        self.common_raw = {s["name"]: s for s in self.raw.get("commonStructs", [])}
        self.root = Struct(self.name)
        self.root.fields = [self._field(f) for f in self.raw.get("fields", [])]
        self.structs[self.name] = self.root
        # common structs that were never referenced still get a class
        for cname in self.common_raw:
            if cname not in self.structs:
                self._struct(cname, None)

    def _struct(self, name: str, fields_raw) -> Struct:
        if name in self.structs:
            return self.structs[name]
        if fields_raw is None:
            if name not in self.common_raw:
                raise ValueError(f"{self.name}: unknown struct type {name}")
            fields_raw = self.common_raw[name]["fields"]
        st = Struct(name)
        self.structs[name] = st  # register before recursing
        st.fields = [self._field(f) for f in fields_raw]
        return st

    def _field(self, f) -> Field:
        t = f["type"].strip()
        is_array = t.startswith("[]")
        elem = t[2:] if is_array else t
        # a tagged field without "versions" exists in its taggedVersions (Kafka's FieldSpec)
        versions = parse_versions(f.get("versions", f.get("taggedVersions")))
        fl = Field(
            name=f["name"],
            attr=snake(f["name"]),
            type=elem,
            is_array=is_array,
            versions=versions,
            nullable=parse_versions(f.get("nullableVersions")),
            tag=f.get("tag"),
            tagged=parse_versions(f.get("taggedVersions")),
            default=f.get("default"),
            flexible_none=f.get("flexibleVersions") == "none",
        )
        if elem not in FIXED and elem not in VARIABLE:
            fl.struct = self._struct(elem, f.get("fields"))
        return fl

    def is_flexible(self, v):
        return in_range(v, self.flexible)


# ---------------------------------------------------------------- defaults

def default_literal(fl: Field) -> str:
    """Python expression for the field's default (a fresh object for mutables)."""
    d = fl.default
    if fl.is_array:
        return "None" if d == "null" else "[]"
    if fl.struct is not None:
        return "None" if d == "null" else f"{fl.struct.name}()"
    t = fl.type
    if t == "bool":
        return "True" if str(d).lower() == "true" else "False"
    if t in ("int8", "int16", "uint16", "int32", "uint32", "int64"):
        if d is None or d == "":
            return "0"
        s = str(d).strip()
        return str(int(s, 16) if s.lower().startswith("0x") else int(s))
    if t == "float64":
        return repr(float(d)) if d not in (None, "") else "0.0"
    if t == "uuid":
        return "ZERO_UUID"
    if t == "string":
        if d == "null":
            return "None"
        return repr("" if d is None else str(d))
    if t == "bytes":
        return "None" if d == "null" else "b''"
    if t == "records":
        return "None"
    raise ValueError(t)


def is_mutable_default(fl: Field) -> bool:
    lit = default_literal(fl)
    return lit == "[]" or lit.endswith("()")


# ---------------------------------------------------------------- code generation

class ModuleGen:
    def __init__(self, spec: Spec):
        self.spec = spec
        self.structs_fmt: dict[str, str] = {}   # format -> name
        self.funcs: list[str] = []
        self.func_by_body: dict[tuple, str] = {}
        self.dec_names: dict[tuple, str] = {}   # (struct, version) -> fn name
        self.enc_names: dict[tuple, str] = {}

    # -- helpers
    def fmt_const(self, fmt: str) -> str:
        if fmt not in self.structs_fmt:
            self.structs_fmt[fmt] = f"_S{len(self.structs_fmt)}"
        return self.structs_fmt[fmt]

    def add_func(self, kind: str, st: Struct, body_lines: list[str]) -> str:
        key = (kind, st.name, tuple(body_lines))
        name = self.func_by_body.get(key)
        if name is None:
            name = f"_{kind}_{st.name}_{sum(1 for k in self.func_by_body if k[0] == kind and k[1] == st.name)}"
            self.func_by_body[key] = name
            if kind in ("d", "s"):
                head = f"def {name}(b, p):"
            elif kind == "n":
                head = f"def {name}(b, p, y):"
            elif kind == "u":
                head = f"def {name}(o, w, c):"
            else:
                head = f"def {name}(o, w):"
            self.funcs.append("\n".join([head] + ["    " + ln for ln in body_lines]) + "\n")
        return name

    def min_size(self, st: Struct, v: int, flex: bool) -> int:
        total = 1 if flex else 0
        for fl in st.fields:
            if not fl.present(v) or fl.is_tagged(v):
                continue
            ff = flex and not fl.flexible_none
            if fl.is_array:
                total += 1 if ff else 4
            elif fl.struct is not None:
                total += 1 if fl.is_nullable(v) else self.min_size(fl.struct, v, flex)
            elif fl.type in FIXED:
                total += FIXED[fl.type][1]
            elif fl.type == "string":
                total += 1 if ff else 2
            else:
                total += 1 if ff else 4
        return total

    # -- scalar read/write expressions for one variable-length value
    def read_var(self, t: str, flex: bool, nullable: bool) -> str:
        if t == "string":
            base = "string"
        elif t == "bytes":
            base = "bytes"
        else:  # records
            return "_rcrec" if flex else "_rrec"
        if flex:
            return f"_rc{'n' if nullable else ''}{base[:3]}"
        return f"_r{'n' if nullable else ''}{base[:3]}"

    def write_var(self, t: str, flex: bool, nullable: bool) -> str:
        if t == "string":
            base = "str"
        else:
            base = "byt"
            nullable = nullable or t == "records"
        return f"_w{'c' if flex else ''}{'n' if nullable else ''}{base}"

    # -- decode
    def gen_decode(self, st: Struct, v: int, flex: bool, steps: bool = False, nested: bool = False) -> str:
        """The decoder of a struct at a version; with ``steps`` (a STEPPED message's root) a
        generator that yields every DECODE_STEP_BYTES or so of its arrays and returns (o, p).
        With ``nested`` too (an entry of a stepped array whose own arrays can be long: a topic's
        partitions), a generator ``(b, p, y)`` that goes on with its caller's next step position
        ``y`` and returns (o, p, y); a struct without such an array gets the plain decoder."""
        if nested and not self.steps_inside(st, v):
            return self.gen_decode(st, v, flex)
        key = (st.name, v, flex, steps, nested)
        if key in self.dec_names:
            return self.dec_names[key]
        lines = [f"o = _new({st.name})"]
        group: list[Field] = []

        def flush_group():
            if not group:
                return
            fmt = ">" + "".join(FIXED[g.type][0] for g in group)
            size = sum(FIXED[g.type][1] for g in group)
            c = self.fmt_const(fmt)
            targets = ", ".join(f"o.{g.attr}" for g in group)
            if len(group) == 1:
                targets += ","
            lines.append(f"{targets} = {c}.unpack_from(b, p)")
            lines.append(f"p += {size}")
            group.clear()

        tagged = []
        for fl in st.fields:
            if not fl.present(v):
                lines_default = f"o.{fl.attr} = {default_literal(fl)}"
                flush_group()
                lines.append(lines_default)
                continue
            if fl.is_tagged(v):
                flush_group()
                lines.append(f"o.{fl.attr} = {default_literal(fl)}")
                tagged.append(fl)
                continue
            if fl.type in FIXED and not fl.is_array:
                group.append(fl)
                continue
            flush_group()
            ff = flex and not fl.flexible_none
            lines.extend(self.decode_value(fl, v, ff, flex, f"o.{fl.attr}", steps=steps, nested=nested))
        flush_group()
        if flex:
            # the empty tag section (one zero byte) is by far the common case
            lines.append("if b[p] == 0:")
            lines.append("    t = None")
            lines.append("    p += 1")
            lines.append("else:")
            lines.append("    t, p = _rtag(b, p)")
            if tagged:
                lines.append("u = None")
                lines.append("if t is not None:")
                lines.append("    for tag, raw in t:")
                first = True
                for fl in sorted(tagged, key=lambda f: f.tag):
                    kw = "if" if first else "elif"
                    first = False
                    lines.append(f"        {kw} tag == {fl.tag}:")
                    inner = self.decode_value(fl, v, True, True, f"o.{fl.attr}", buf="raw", pos="q", tagged=True)
                    lines.append("            q = 0")
                    lines.extend("            " + ln for ln in inner)
                lines.append("        else:")
                lines.append("            if u is None: u = []")
                lines.append("            u.append((tag, bytes(raw)))")
                lines.append("o._unknown_tagged = u")
            else:
                lines.append("o._unknown_tagged = None if t is None else [(tag, bytes(raw)) for tag, raw in t]")
        else:
            lines.append("o._unknown_tagged = None")
        lines.append("return o, p, y" if nested else "return o, p")
        if steps and not any(ln.strip() == "yield" for ln in lines):
            name = self.gen_decode(st, v, flex)  # no array at this version: nothing to step
        else:
            name = self.add_func(("n" if nested else "s") if steps else "d", st, lines)
        self.dec_names[key] = name
        return name

    def steps_inside(self, st: Struct, v: int) -> bool:
        """Whether an entry of ``st`` has an array (of structs or strings) of its own at ``v``,
        whose length a client chooses: a stepped decode steps inside it too."""
        return any(fl.present(v) and not fl.is_tagged(v) and fl.is_array and fl.type not in FIXED
                   and fl.type != "uuid" for fl in st.fields)

    def decode_value(self, fl: Field, v: int, ff: bool, flex: bool, target: str, buf="b", pos="p",
                     steps: bool = False, nested: bool = False, tagged: bool = False) -> list[str]:
        b, p = buf, pos
        nullable = fl.is_nullable(v)
        out = []
        if fl.is_array:
            et = fl.type
            if fl.struct is not None:
                elem_min = max(self.min_size(fl.struct, v, flex), 0)
            elif et in FIXED:
                elem_min = FIXED[et][1]
            else:
                elem_min = 1 if ff else (2 if et == "string" else 4)
            lenfn = ("_rcnal" if nullable else "_rcal") if ff else ("_rnal" if nullable else "_ral")
            if ff:
                # one-byte compact length (under 127 elements): inline; a short buffer
                # still fails as truncation inside the element reads
                out.append(f"n = {b}[{p}] - 1")
                out.append(f"if 0 <= n < 127:")
                out.append(f"    {p} += 1")
                out.append("else:")
                out.append(f"    n, {p} = {lenfn}({b}, {p}, {elem_min})")
            else:
                out.append(f"n, {p} = {lenfn}({b}, {p}, {elem_min})")
            body = []
            step = [f"    if {p} >= y:", f"        y = {p} + {DECODE_STEP_BYTES}", "        yield"] if steps else []
            if steps and not nested:
                body.append(f"y = {p} + {DECODE_STEP_BYTES}")
            if fl.struct is not None:
                fn = self.gen_decode(fl.struct, v, flex, steps=steps, nested=steps)
                body.append(f"l = []")
                body.append(f"for _ in range(n):")
                if fn.startswith("_n_"):
                    body.append(f"    e, {p}, y = yield from {fn}({b}, {p}, y)")
                else:
                    body.append(f"    e, {p} = {fn}({b}, {p})")
                body.append(f"    l.append(e)")
                body.extend(step)
            elif et == "uuid":
                body.append(f"l = [bytes({b}[{p} + 16 * i:{p} + 16 * i + 16]) for i in range(n)]")
                body.append(f"if {p} + 16 * n > len({b}): raise _Trunc('uuid array')")
                body.append(f"{p} += 16 * n")
            elif et in FIXED:
                code, size = FIXED[et]
                body.append(f"l = list((_ARR['{code}'][n] if n < 64 else _struct.Struct('>%d{code}' % n)).unpack_from({b}, {p}))")
                body.append(f"{p} += {size} * n")
            else:
                rf = self.read_var(et, ff, False)
                body.append("l = []")
                body.append("for _ in range(n):")
                body.append(f"    e, {p} = {rf}({b}, {p})")
                body.append("    l.append(e)")
                body.extend(step)
            if nullable:
                out.append("if n < 0:")
                out.append(f"    {target} = None")
                out.append("else:")
                out.extend("    " + ln for ln in body)
                out.append(f"    {target} = l")
            else:
                out.extend(body)
                out.append(f"{target} = l")
            return out
        if fl.struct is not None:
            fn = self.gen_decode(fl.struct, v, flex)
            if nullable and tagged:
                # a tagged nullable struct: an unsigned varint, 0 for null, 1 before the struct (Kafka's
                # generated read: readUnsignedVarint() <= 0); a field of one byte holds no struct (odradek
                # before 2026-11 wrote a null as 0xff)
                out.append(f"if {b}[{p}] == 0 or len({b}) <= {p} + 1:")
                out.append(f"    {target} = None")
                out.append(f"    {p} += 1")
                out.append("else:")
                out.append(f"    while {b}[{p}] >= 128: {p} += 1")
                out.append(f"    {target}, {p} = {fn}({b}, {p} + 1)")
            elif nullable:
                out.append(f"if {b}[{p}] >= 128:")
                out.append(f"    {target} = None")
                out.append(f"    {p} += 1")
                out.append("else:")
                out.append(f"    {target}, {p} = {fn}({b}, {p} + 1)")
            else:
                out.append(f"{target}, {p} = {fn}({b}, {p})")
            return out
        if fl.type in FIXED:
            code, size = FIXED[fl.type]
            c = self.fmt_const(">" + code)
            out.append(f"{target}, = {c}.unpack_from({b}, {p})")
            out.append(f"{p} += {size}")
            return out
        rf = self.read_var(fl.type, ff, nullable)
        out.append(f"{target}, {p} = {rf}({b}, {p})")
        return out

    # -- encode
    def gen_encode(self, st: Struct, v: int, flex: bool, steps: bool = False, nested: bool = False) -> str:
        """The encoder of a struct at a version; with ``steps`` (a STEPPED_RESPONSES message's
        root) a generator that yields every ENCODE_STEP_ENTRIES entries of its arrays of structs,
        inside their entries too (``nested``: a generator ``(o, w, c)`` that goes on with its
        caller's count ``c`` of entries since the last yield and returns it)."""
        if nested and not self.steps_inside(st, v):
            return self.gen_encode(st, v, flex)
        key = (st.name, v, flex, steps, nested)
        if key in self.enc_names:
            return self.enc_names[key]
        lines: list[str] = []
        group: list[Field] = []

        def flush_group():
            if not group:
                return
            fmt = ">" + "".join(FIXED[g.type][0] for g in group)
            c = self.fmt_const(fmt)
            args = ", ".join(f"o.{g.attr}" for g in group)
            lines.append(f"w.append({c}.pack({args}))")
            group.clear()

        tagged = []
        for fl in st.fields:
            if not fl.present(v):
                continue
            if fl.is_tagged(v):
                tagged.append(fl)
                continue
            if fl.type in FIXED and not fl.is_array:
                group.append(fl)
                continue
            flush_group()
            ff = flex and not fl.flexible_none
            lines.extend(self.encode_value(fl, v, ff, flex, f"o.{fl.attr}", "w", steps=steps))
        flush_group()
        if flex:
            if tagged:
                lines.append("tg = []")
                for fl in sorted(tagged, key=lambda f: f.tag):
                    lit = default_literal(fl)
                    lines.append(f"x = o.{fl.attr}")
                    if lit == "[]":
                        cond = "x is None or x" if fl.is_nullable(v) else "x"
                    elif lit == "None":
                        cond = "x is not None"
                    else:
                        cond = f"x != {lit}"
                    lines.append(f"if {cond}:")
                    lines.append("    tw = []")
                    inner = self.encode_value(fl, v, True, True, "x", "tw", tagged=True)
                    lines.extend("    " + ln for ln in inner)
                    lines.append(f"    tg.append(({fl.tag}, b''.join(tw)))")
                lines.append("if o._unknown_tagged:")
                lines.append("    tg = sorted(tg + o._unknown_tagged, key=_tagkey)")
                lines.append("_wtag(w, tg)")
            else:
                lines.append("_wtag(w, o._unknown_tagged)")
        if steps and not any(ln.strip() == "yield" for ln in lines):
            name = self.gen_encode(st, v, flex)  # no array of structs at this version: nothing to step
        else:
            if steps and not nested:
                lines.insert(0, "c = 0")
            if nested:
                lines.append("return c")
            if not lines:
                lines.append("pass")
            name = self.add_func(("u" if nested else "t") if steps else "e", st, lines)
        self.enc_names[key] = name
        return name

    def encode_value(self, fl: Field, v: int, ff: bool, flex: bool, src: str, w: str,
                     steps: bool = False, tagged: bool = False) -> list[str]:
        nullable = fl.is_nullable(v)
        out = []
        if fl.is_array:
            et = fl.type
            out.append(f"x = {src}")
            body = []
            if ff:
                body.append(f"{w}.append(_uv(len(x) + 1))")
            else:
                body.append(f"{w}.append(_I(len(x)))")
            if fl.struct is not None:
                fn = self.gen_encode(fl.struct, v, flex)
                sfn = self.gen_encode(fl.struct, v, flex, steps=True, nested=True) if steps else fn
                call = f"c = yield from {sfn}(e, {w}, c)" if sfn != fn else f"{fn}(e, {w})"
                body.append("for e in x:")
                if fl.struct.name in PRE_ENCODABLE:
                    body.append("    if e.__class__ is _Encoded:")
                    body.append(f"        if e.encoder is not {fn}:")
                    body.append(f"            raise TypeError('{fl.struct.name} encoded for another version')")
                    body.append(f"        {w}.append(e.data)")
                    body.append("    else:")
                    body.append(f"        {call}")
                else:
                    body.append(f"    {call}")
                if steps:
                    body += ["    c += 1", f"    if c >= {ENCODE_STEP_ENTRIES}:", "        c = 0", "        yield"]
            elif et == "uuid":
                body.append(f"{w}.append(b''.join(x))")
            elif et in FIXED:
                code, _ = FIXED[et]
                body.append(f"{w}.append(_pack('>%d{code}' % len(x), *x))")
            else:
                wf = self.write_var(et, ff, False)
                body.append("for e in x:")
                body.append(f"    {wf}({w}, e)")
            if nullable:
                out.append("if x is None:")
                null_marker = "b'\\x00'" if ff else "b'\\xff\\xff\\xff\\xff'"
                out.append(f"    {w}.append({null_marker})")
                out.append("else:")
                out.extend("    " + ln for ln in body)
            else:
                out.extend(body)
            return out
        if fl.struct is not None:
            fn = self.gen_encode(fl.struct, v, flex)
            if nullable:
                out.append(f"x = {src}")
                out.append("if x is None:")
                # (tagged: Kafka's writeUnsignedVarint(0); else its writeByte(-1))
                out.append(f"    {w}.append(b'\\x00')" if tagged else f"    {w}.append(b'\\xff')")
                out.append("else:")
                out.append(f"    {w}.append(b'\\x01')")
                out.append(f"    {fn}(x, {w})")
            else:
                out.append(f"{fn}({src}, {w})")
            return out
        if fl.type in FIXED:
            c = self.fmt_const(">" + FIXED[fl.type][0])
            out.append(f"{w}.append({c}.pack({src}))")
            return out
        wf = self.write_var(fl.type, ff, nullable)
        out.append(f"{wf}({w}, {src})")
        return out

    # -- classes
    def class_code(self, st: Struct, top: bool) -> str:
        spec = self.spec
        attrs = [f.attr for f in st.fields]
        lines = [f"class {st.name}(Message):"]
        lines.append(f"    __slots__ = {tuple(attrs + ['_unknown_tagged'])!r}")
        rows = []
        for f in st.fields:
            t = ("[]" if f.is_array else "") + f.type
            rows.append((f.attr, t, f.versions[0], f.versions[1], f.nullable[0], f.nullable[1],
                         f.tag, f.tagged[0] if f.tag is not None else -1,
                         f.struct.name if f.struct else None))
        lines.append(f"    _FIELDS = {tuple(rows)!r}")
        if top:
            lines.append(f"    API_KEY = {spec.api_key!r}")
            lines.append(f"    VALID_VERSIONS = {spec.valid!r}")
            lines.append(f"    FLEXIBLE_MIN = {spec.flexible[0] if spec.flexible[0] >= 0 else None!r}")
        params = []
        body = []
        for f in st.fields:
            lit = default_literal(f)
            if is_mutable_default(f):
                params.append(f"{f.attr}=DEFAULT")
                body.append(f"        self.{f.attr} = {lit} if {f.attr} is DEFAULT else {f.attr}")
            else:
                params.append(f"{f.attr}={lit}")
                body.append(f"        self.{f.attr} = {f.attr}")
        params.append("_unknown_tagged=None")
        body.append("        self._unknown_tagged = _unknown_tagged")
        lines.append(f"\n    def __init__(self, *, {', '.join(params)}):")
        lines.extend(body)
        return "\n".join(lines) + "\n"

    def render(self) -> str:
        spec = self.spec
        lo, hi = spec.valid
        dec, enc, steps, enc_steps = {}, {}, {}, {}
        if lo >= 0:
            for v in range(lo, hi + 1):
                flex = spec.is_flexible(v)
                dec[v] = self.gen_decode(spec.root, v, flex, steps=spec.name in STEPPED)
                if dec[v].startswith("_s_"):
                    steps[v] = dec[v]
                    dec[v] = "_d" + dec[v]
                enc[v] = self.gen_encode(spec.root, v, flex)
                if spec.name in STEPPED_RESPONSES:
                    stepped = self.gen_encode(spec.root, v, flex, steps=True)
                    if stepped.startswith("_t_"):
                        enc_steps[v] = stepped
        # a pre-encodable struct's encoder at each version of the message (Message.encoded)
        pre_enc = {st.name: {v: self.gen_encode(st, v, spec.is_flexible(v)) for v in range(lo, hi + 1)}
                   for st in spec.structs.values() if st.name in PRE_ENCODABLE and lo >= 0}
        # struct classes: children first so default constructors resolve
        order: list[Struct] = []
        seen = set()

        def visit(st: Struct):
            if st.name in seen:
                return
            seen.add(st.name)
            for f in st.fields:
                if f.struct is not None:
                    visit(f.struct)
            order.append(st)

        for st in list(self.spec.structs.values()):
            visit(st)
        out = [
            f'"""Generated from Kafka\'s {spec.name}.json by tools/gen_wire.py. Do not edit."""',
            "# flake8: noqa",
            "import struct as _struct",
            "",
            "from ..base import DEFAULT, "
            + ("Encoded as _Encoded, " if any(st.name in PRE_ENCODABLE for st in self.spec.structs.values()) else "")
            + "Message" + (", whole as _whole" if steps else ""),
            "from ..exceptions import TruncatedError as _Trunc",
            "from ..primitives import (",
            "    ZERO_UUID, I_PACK as _I, uvarint_bytes as _uv, read_tagged_raw as _rtag, write_tagged as _wtag,",
            "    read_string as _rstr, read_nullable_string as _rnstr, read_compact_string as _rcstr,",
            "    read_compact_nullable_string as _rcnstr, read_bytes as _rbyt, read_nullable_bytes as _rnbyt,",
            "    read_compact_bytes as _rcbyt, read_compact_nullable_bytes as _rcnbyt, read_records as _rrec,",
            "    read_compact_records as _rcrec, read_array_len as _ral, read_nullable_array_len as _rnal,",
            "    read_compact_array_len as _rcal, read_compact_nullable_array_len as _rcnal,",
            "    write_string as _wstr, write_nullable_string as _wnstr, write_compact_string as _wcstr,",
            "    write_compact_nullable_string as _wcnstr, write_bytes as _wbyt, write_nullable_bytes as _wnbyt,",
            "    write_compact_bytes as _wcbyt, write_compact_nullable_bytes as _wcnbyt, ARRAY_STRUCTS as _ARRAY_STRUCTS,",
            ")",
            "",
            "_new = object.__new__",
            "_ARR = _ARRAY_STRUCTS",
            "_unpack = _struct.unpack_from",
            "_pack = _struct.pack",
            "",
            "",
            "def _tagkey(t):",
            "    return t[0]",
            "",
        ]
        for fmt, name in self.structs_fmt.items():
            out.append(f"{name} = _struct.Struct({fmt!r})")
        out.append("")
        for st in order:
            out.append("")
            out.append(self.class_code(st, st is spec.root))
        out.append("")
        for fn in self.funcs:
            out.append("")
            out.append(fn)
        out.append("")
        for s_name in dict.fromkeys(steps.values()):
            out.append(f"_d{s_name} = _whole({s_name})")
        if steps:
            out.append(f"{spec.root.name}._STEPS = {{{', '.join(f'{v}: {n}' for v, n in steps.items())}}}")
        out.append(f"{spec.root.name}._DECODERS = {{{', '.join(f'{v}: {n}' for v, n in dec.items())}}}")
        out.append(f"{spec.root.name}._ENCODERS = {{{', '.join(f'{v}: {n}' for v, n in enc.items())}}}")
        if enc_steps:
            out.append(f"{spec.root.name}._ENCODE_STEPS = {{{', '.join(f'{v}: {n}' for v, n in enc_steps.items())}}}")
        for name, encs in pre_enc.items():
            out.append(f"{name}._ENCODERS = {{{', '.join(f'{v}: {n}' for v, n in encs.items())}}}")
        out.append("")
        return "\n".join(out)


def spec_files(spec_dir: str):
    for sub in SUBDIRS:
        d = os.path.join(spec_dir, sub)
        if not os.path.isdir(d):
            continue
        for fn in sorted(os.listdir(d)):
            if fn.endswith(".json"):
                yield sub, os.path.join(d, fn)


def generate(spec_dir: str) -> dict[str, str]:
    """Return {relative file name: source} for everything the generator writes."""
    files: dict[str, str] = {}
    index = {"request": {}, "response": {}, "header": {}, "metadata": {}, "data": {},
             "coordinator-key": {}, "coordinator-value": {}}
    for sub, path in spec_files(spec_dir):
        spec = Spec(path)
        mod = module_name(spec.name)
        if f"{mod}.py" in files:
            raise ValueError(f"duplicate message name {spec.name}")
        files[f"{mod}.py"] = ModuleGen(spec).render()
        index.setdefault(spec.kind, {})[spec.name] = (mod, spec.api_key, spec.valid, spec.flexible)
    lines = [
        '"""Generated index of every message module (tools/gen_wire.py). Do not edit.',
        "",
        "Modules load lazily so a process only imports the messages it uses.",
        '"""',
        "",
        "import importlib",
        "",
        "# name -> (module, api key, (min, max) valid versions, (min, max) flexible or (-1, -1))",
    ]
    for kind in sorted(index):
        var = kind.upper().replace("-", "_")
        lines.append(f"{var} = {{")
        for name in sorted(index[kind]):
            mod, key, valid, flex = index[kind][name]
            lines.append(f"    {name!r}: ({mod!r}, {key!r}, {valid!r}, {flex!r}),")
        lines.append("}")
        lines.append("")
    lines += [
        "REQUEST_BY_KEY = {v[1]: k for k, v in REQUEST.items()}",
        "RESPONSE_BY_KEY = {v[1]: k for k, v in RESPONSE.items()}",
        "",
        "_ALL = {}",
        "for _table in (COORDINATOR_KEY, COORDINATOR_VALUE, DATA, HEADER, METADATA, REQUEST, RESPONSE):",
        "    _ALL.update(_table)",
        "",
        "",
        "def load(name: str):",
        '    """The generated class for a message name, e.g. load("ProduceRequest")."""',
        "    mod = importlib.import_module(f'{__name__}.{_ALL[name][0]}')",
        "    return getattr(mod, name)",
        "",
    ]
    files["__init__.py"] = "\n".join(lines)
    return files


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    spec_dir = argv[1]
    out_dir = argv[2] if len(argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "odradek", "wire", "messages")
    files = generate(spec_dir)
    os.makedirs(out_dir, exist_ok=True)
    for old in os.listdir(out_dir):
        if old.endswith(".py") and old not in files:
            os.remove(os.path.join(out_dir, old))
    for name, src in files.items():
        with open(os.path.join(out_dir, name), "w") as f:
            f.write(src)
    print(f"wrote {len(files)} modules to {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
