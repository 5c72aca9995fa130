"""The committed odradek/wire/messages is exactly what tools/gen_wire.py writes from the specs: Kafka
4.3.0's JSON specs, read out of its jars from Maven Central (apache_kafka.specs_dir), or the folder
ODRADEK_KAFKA_SPECS names."""

import os
from pathlib import Path

import gen_wire_tool
import pytest

import apache_kafka

ROOT = Path(__file__).resolve().parents[2]
SPECS_ENV = os.environ.get("ODRADEK_KAFKA_SPECS")
OUT = ROOT / "odradek" / "wire" / "messages"


def _generator():
    return gen_wire_tool.load()


@pytest.mark.skipif(SPECS_ENV is None and apache_kafka.missing(java=False) is not None,
                    reason=str(apache_kafka.missing(java=False)))
def test_generated_code_is_current():
    specs = Path(SPECS_ENV) if SPECS_ENV else apache_kafka.specs_dir()
    files = _generator().generate(str(specs))
    committed = {p.name for p in OUT.glob("*.py")}
    assert committed == set(files), "generated module set differs; run python tools/gen_wire.py SPEC_DIR"
    stale = [name for name, src in files.items() if (OUT / name).read_text() != src]
    assert not stale, f"stale generated modules: {stale[:5]}; run python tools/gen_wire.py SPEC_DIR"


def test_comment_stripping_keeps_urls_in_strings():
    gen = _generator()
    text = '{"about": "see http://x//y", // comment\n "a": 1}'
    assert gen.strip_comments(text) == '{"about": "see http://x//y", \n "a": 1}'


def test_version_ranges():
    gen = _generator()
    assert gen.parse_versions("3-13") == (3, 13)
    assert gen.parse_versions("9+") == (9, gen.MAX_VERSION)
    assert gen.parse_versions("none") == (-1, -1)
    assert gen.parse_versions("5") == (5, 5)
