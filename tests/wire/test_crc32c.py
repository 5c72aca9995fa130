"""odradek.wire._crc32c (the C CRC-32C of record batches) against the crc32c package."""
import crc32c as reference
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from odradek.wire import records

native = pytest.importorskip("odradek.wire._crc32c", reason="C extension not built (pip install -e . builds it)")

# around the sizes where the three-stream blocks (3 x 4096, 3 x 256), the folds (256, 64 and 16
# bytes) and the 8-byte steps change
EDGES = sorted({n + d for n in (0, 8, 256, 320, 512, 768, 4096, 12288, 16384, 24576, 65536)
                for d in (-17, -9, -1, 0, 1, 7, 8, 15, 16, 63, 64, 65) if n + d >= 0})
PATHS = [name for name, has in (("table", True), ("sse4.2", native.hardware()),
                                ("vpclmulqdq", native.implementation() == "vpclmulqdq")) if has]
FOLD_MIN = 256  # the folding path takes inputs from this size


def cpu_flags() -> set[str]:
    try:
        with open("/proc/cpuinfo") as f:
            return next((set(line.split(":", 1)[1].split()) for line in f if line.startswith("flags")), set())
    except OSError:
        return set()


def test_known_value():
    assert native.crc32c(b"123456789") == 0xE3069283  # the CRC-32C check value


@pytest.mark.parametrize("n", EDGES)
@pytest.mark.parametrize("misalign", [0, 1, 5])
def test_sizes_and_alignments(n, misalign):
    data = memoryview(bytes((i * 131 + n) & 0xFF for i in range(n + misalign)))[misalign:]
    assert native.crc32c(data) == reference.crc32c(data)
    assert native.crc32c_software(data) == reference.crc32c(data)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("n", EDGES)
def test_each_path(path, n):
    if path == "vpclmulqdq" and n < FOLD_MIN:
        with pytest.raises(ValueError):
            native.crc32c_path(bytes(n), path)
        return
    data = bytes((i * 197 + 3 * n) & 0xFF for i in range(n))
    assert native.crc32c_path(data, path) == reference.crc32c(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(min_size=FOLD_MIN, max_size=5000))
def test_folding_random(data):
    for path in PATHS:
        assert native.crc32c_path(data, path) == reference.crc32c(data), path


def test_fastest_path_the_cpu_allows():
    flags = cpu_flags()
    if not flags:
        pytest.skip("no /proc/cpuinfo flags to compare with")
    want = ("vpclmulqdq" if {"sse4_2", "pclmulqdq", "avx512f", "vpclmulqdq"} <= flags
            else "sse4.2" if "sse4_2" in flags else "table")
    assert native.implementation() == want


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40000), st.integers(0, 2**32 - 1), st.integers(0, 40000))
def test_incremental_equals_whole(data, value, cut):
    cut = min(cut, len(data))
    assert native.crc32c(data, value) == reference.crc32c(data, value)
    assert native.crc32c(data[cut:], native.crc32c(data[:cut])) == reference.crc32c(data)


def test_records_uses_the_extension():
    assert records.crc32c is native.crc32c


def test_bad_arguments():
    with pytest.raises(TypeError):
        native.crc32c()
    with pytest.raises(TypeError):
        native.crc32c("text")
    with pytest.raises(OverflowError):
        native.crc32c(b"x", 2**32)
    with pytest.raises(ValueError):
        native.crc32c_path(b"x", "no-such-path")
