/* odradek.log._batchio: the two per-append steps of a plain produce, in C.
 *
 * Optional accelerator: odradek/log/batchio.py holds the same functions in
 * Python and is used when this module is not built. Both must agree exactly
 * (tests/log/test_batchio.py runs them side by side).
 *
 *   plain_batch(record_set, max_bytes, check_crc)
 *       -> (batch_length, last_offset_delta, max_timestamp, producer_id,
 *           producer_epoch, base_sequence, records_count)
 *       or None when record_set is not exactly one well-formed, dense,
 *       uncompressed, non-transactional, non-control batch of at most max_bytes whose CRC32C
 *       matches (check_crc) and whose records are well formed
 *       (check_records) -- the caller then takes its general path, which names
 *       the error.
 *
 *   check_records(section, count, check_offsets) -> 0 | 1 | 2
 *       walks `count` records filling `section` exactly: 0 valid, 1 invalid
 *       (Kafka: INVALID_RECORD), 2 valid but offset deltas not 0..count-1
 *       (only with check_offsets).
 *
 *   pwrite_batch(fd, position, record_set, base_offset, leader_epoch) -> None
 *       writes record_set at position with baseOffset (and, unless leader_epoch
 *       is None, partitionLeaderEpoch) replaced: both lie before the CRC'd
 *       range. The caller's buffer is not modified and not copied (pwritev of
 *       a 16-byte header + the rest). Raises OSError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "crc32c_impl.h" /* odradek/wire: the same CRC-32C as odradek.wire._crc32c */

/* Record batch v2 layout (Kafka's DefaultRecordBatch). */
#define BATCH_LENGTH_OFFSET 8
#define PARTITION_LEADER_EPOCH_OFFSET 12
#define MAGIC_OFFSET 16
#define CRC_OFFSET 17
#define ATTRIBUTES_OFFSET 21
#define LAST_OFFSET_DELTA_OFFSET 23
#define MAX_TIMESTAMP_OFFSET 35
#define PRODUCER_ID_OFFSET 43
#define PRODUCER_EPOCH_OFFSET 51
#define BASE_SEQUENCE_OFFSET 53
#define RECORDS_COUNT_OFFSET 57
#define HEADER_SIZE 61
#define LOG_OVERHEAD 12
#define MIN_BATCH_LENGTH (HEADER_SIZE - LOG_OVERHEAD)
#define REWRITTEN_PREFIX 16 /* baseOffset, batchLength, partitionLeaderEpoch */
#define CODEC_MASK 0x07
#define TXN_OR_CONTROL_MASK 0x30
#define MIN_RECORD_SIZE 7

static inline uint64_t be64(const unsigned char *p) {
    uint64_t v;
    memcpy(&v, p, 8);
    return __builtin_bswap64(v);
}
static inline uint32_t be32(const unsigned char *p) {
    uint32_t v;
    memcpy(&v, p, 4);
    return __builtin_bswap32(v);
}
static inline uint16_t be16(const unsigned char *p) {
    return (uint16_t)((p[0] << 8) | p[1]);
}


/* Record walk (Kafka's DefaultRecord.readFrom + LogValidator): CHECK_OK, or
 * CHECK_INVALID (structure, count or size: INVALID_RECORD), or CHECK_OFFSETS
 * (offset deltas not 0..count-1, checked for compressed batches). */
#define CHECK_OK 0
#define CHECK_INVALID 1
#define CHECK_OFFSETS 2

/* zigzag varint of at most max_bytes bytes; 0 on truncation or overlong */
static inline int read_varlong(const unsigned char **pp, const unsigned char *end, int max_bytes,
                               int64_t *out) {
    const unsigned char *p = *pp;
    uint64_t raw = 0;
    int shift = 0;
    for (int i = 0; i < max_bytes; i++) {
        if (p >= end)
            return 0;
        unsigned char b = *p++;
        raw |= (uint64_t)(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            *out = (int64_t)(raw >> 1) ^ -(int64_t)(raw & 1);
            *pp = p;
            return 1;
        }
        shift += 7;
    }
    return 0;
}

/* a length-prefixed field whose negative length means null: skip it; 0 when malformed */
static inline int skip_nullable(const unsigned char **pp, const unsigned char *end) {
    int64_t n;
    if (!read_varlong(pp, end, 5, &n))
        return 0;
    if (n > 0) {
        if (n > end - *pp)
            return 0;
        *pp += n;
    }
    return 1;
}

static int walk_records(const unsigned char *p, const unsigned char *end, long long count,
                        int check_offsets) {
    int offsets_ok = 1;
    for (long long i = 0; i < count; i++) {
        int64_t size, v;
        if (!read_varlong(&p, end, 5, &size) || size < 0 || size > end - p)
            return CHECK_INVALID;
        const unsigned char *rec_end = p + size;
        if (p >= rec_end)
            return CHECK_INVALID;
        p++; /* attributes */
        if (!read_varlong(&p, rec_end, 10, &v)) /* timestamp delta */
            return CHECK_INVALID;
        if (!read_varlong(&p, rec_end, 5, &v)) /* offset delta */
            return CHECK_INVALID;
        if (v != i)
            offsets_ok = 0;
        if (!skip_nullable(&p, rec_end) || !skip_nullable(&p, rec_end)) /* key, value */
            return CHECK_INVALID;
        int64_t headers;
        if (!read_varlong(&p, rec_end, 5, &headers) || headers < 0)
            return CHECK_INVALID;
        for (int64_t h = 0; h < headers; h++) {
            if (!read_varlong(&p, rec_end, 5, &v) || v < 0 || v > rec_end - p) /* key: not null */
                return CHECK_INVALID;
            p += v;
            if (!skip_nullable(&p, rec_end)) /* header value */
                return CHECK_INVALID;
        }
        if (p != rec_end)
            return CHECK_INVALID;
    }
    if (p != end)
        return CHECK_INVALID;
    return check_offsets && !offsets_ok ? CHECK_OFFSETS : CHECK_OK;
}

static PyObject *check_records(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "check_records(section, count, check_offsets)");
        return NULL;
    }
    long long count = PyLong_AsLongLong(args[1]);
    if (count == -1 && PyErr_Occurred())
        return NULL;
    int check_offsets = PyObject_IsTrue(args[2]);
    if (check_offsets < 0)
        return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *p = b.buf;
    int r = count < 0 ? CHECK_INVALID : walk_records(p, p + b.len, count, check_offsets);
    PyBuffer_Release(&b);
    return PyLong_FromLong(r);
}

static PyObject *plain_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "plain_batch(record_set, max_bytes, check_crc)");
        return NULL;
    }
    long long max_bytes = PyLong_AsLongLong(args[1]);
    if (max_bytes == -1 && PyErr_Occurred())
        return NULL;
    int check_crc = PyObject_IsTrue(args[2]);
    if (check_crc < 0)
        return NULL;
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    const unsigned char *p = b.buf;
    Py_ssize_t n = b.len;
    PyObject *result = NULL;
    if (n < HEADER_SIZE)
        goto not_plain;
    int32_t batch_length = (int32_t)be32(p + BATCH_LENGTH_OFFSET);
    int16_t attributes = (int16_t)be16(p + ATTRIBUTES_OFFSET);
    int32_t last_offset_delta = (int32_t)be32(p + LAST_OFFSET_DELTA_OFFSET);
    int32_t count = (int32_t)be32(p + RECORDS_COUNT_OFFSET);
    if ((int64_t)batch_length + LOG_OVERHEAD != n || p[MAGIC_OFFSET] != 2
        || (attributes & CODEC_MASK) /* compressed: the general path decompresses to check */
        || batch_length < MIN_BATCH_LENGTH || count < 1
        || last_offset_delta != count - 1 /* dense, as Kafka's LogValidator */
        || n > max_bytes || (attributes & TXN_OR_CONTROL_MASK)
        || (int64_t)count * MIN_RECORD_SIZE > n - HEADER_SIZE)
        goto not_plain;
    if (check_crc && crc32c_update(0, p + ATTRIBUTES_OFFSET, (size_t)(n - ATTRIBUTES_OFFSET))
                         != be32(p + CRC_OFFSET))
        goto not_plain;
    if (walk_records(p + HEADER_SIZE, p + n, count, 0) != CHECK_OK)
        goto not_plain;
    result = Py_BuildValue("(iiLLhii)", batch_length, last_offset_delta,
                           (long long)(int64_t)be64(p + MAX_TIMESTAMP_OFFSET),
                           (long long)(int64_t)be64(p + PRODUCER_ID_OFFSET),
                           (short)(int16_t)be16(p + PRODUCER_EPOCH_OFFSET),
                           (int)(int32_t)be32(p + BASE_SEQUENCE_OFFSET), count);
    goto done;
not_plain:
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&b);
    return result;
}

static PyObject *pwrite_batch(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "pwrite_batch(fd, position, record_set, base_offset, leader_epoch)");
        return NULL;
    }
    long fd_long = PyLong_AsLong(args[0]);
    if (fd_long == -1 && PyErr_Occurred())
        return NULL;
    if (fd_long < 0 || fd_long > INT_MAX) {
        PyErr_SetString(PyExc_ValueError, "bad file descriptor");
        return NULL;
    }
    int fd = (int)fd_long;
    long long position = PyLong_AsLongLong(args[1]);
    if (position == -1 && PyErr_Occurred())
        return NULL;
    long long base_offset = PyLong_AsLongLong(args[3]);
    if (base_offset == -1 && PyErr_Occurred())
        return NULL;
    int has_epoch = args[4] != Py_None;
    long epoch = 0;
    if (has_epoch) {
        epoch = PyLong_AsLong(args[4]);
        if (epoch == -1 && PyErr_Occurred())
            return NULL;
        if (epoch < INT32_MIN || epoch > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "leader_epoch out of int32 range");
            return NULL;
        }
    }
    Py_buffer b;
    if (PyObject_GetBuffer(args[2], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    if (b.len < HEADER_SIZE) {
        PyBuffer_Release(&b);
        PyErr_SetString(PyExc_ValueError, "record set shorter than a batch header");
        return NULL;
    }
    unsigned char prefix[REWRITTEN_PREFIX];
    memcpy(prefix, b.buf, REWRITTEN_PREFIX);
    uint64_t bo = __builtin_bswap64((uint64_t)base_offset);
    memcpy(prefix, &bo, 8);
    if (has_epoch) {
        uint32_t e = __builtin_bswap32((uint32_t)(int32_t)epoch);
        memcpy(prefix + PARTITION_LEADER_EPOCH_OFFSET, &e, 4);
    }
    const char *body = (const char *)b.buf;
    Py_ssize_t n = b.len, done = 0;
    int err = 0;
    Py_BEGIN_ALLOW_THREADS
    while (done < n) {
        ssize_t w;
        if (done < REWRITTEN_PREFIX) {
            struct iovec iov[2] = {
                {prefix + done, (size_t)(REWRITTEN_PREFIX - done)},
                {(char *)body + REWRITTEN_PREFIX, (size_t)(n - REWRITTEN_PREFIX)},
            };
            w = pwritev(fd, iov, 2, (off_t)(position + done));
        } else {
            w = pwrite(fd, body + done, (size_t)(n - done), (off_t)(position + done));
        }
        if (w < 0) {
            if (errno == EINTR)
                continue;
            err = errno;
            break;
        }
        done += w;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (err) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"plain_batch", (PyCFunction)(void (*)(void))plain_batch, METH_FASTCALL,
     "Header fields of one plain, valid batch, or None."},
    {"check_records", (PyCFunction)(void (*)(void))check_records, METH_FASTCALL,
     "Walk a records section: 0 valid, 1 invalid structure, 2 offset deltas out of order."},
    {"pwrite_batch", (PyCFunction)(void (*)(void))pwrite_batch, METH_FASTCALL,
     "Write a batch at a position with baseOffset/partitionLeaderEpoch replaced."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "odradek.log._batchio", NULL, -1, methods,
};

PyMODINIT_FUNC PyInit__batchio(void) {
    crc32c_init();
    return PyModule_Create(&module);
}
