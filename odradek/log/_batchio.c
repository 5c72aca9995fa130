/* odradek.log._batchio: the per-append steps of a plain produce, in C.
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
 *
 *   SegmentTail: LogSegment's base type. The state of a segment's end (size,
 *       next_offset, timestamps, index bookkeeping, the indexes' arrays, the
 *       .log fd) as C fields, and append_plain(record_set, max_bytes, check_crc,
 *       now_ms, timestamp_after_max_ms, segment_bytes, max_segment_ms,
 *       leader_epoch, log_start_offset): plain_batch's check, then - with no
 *       producer id, no roll due, the timestamp in bounds and a real fd - the
 *       write and LogSegment.append_batch's tracking, returning the AppendInfo
 *       (a struct sequence); else the header tuple (PartitionLog's Python path
 *       goes on from it) or None. batchio.PySegmentTail is the stand-in.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>

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

/* The header fields of a plain batch (see plain_batch). */
typedef struct {
    int32_t batch_length, last_offset_delta, base_sequence, count;
    int64_t max_timestamp, producer_id;
    int16_t producer_epoch;
} plain_header;

/* 1 when p[0:n] is one plain batch (header filled in), else 0 */
static int check_plain(const unsigned char *p, Py_ssize_t n, long long max_bytes, int check_crc,
                       plain_header *h) {
    if (n < HEADER_SIZE)
        return 0;
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
        return 0;
    if (check_crc && crc32c_update(0, p + ATTRIBUTES_OFFSET, (size_t)(n - ATTRIBUTES_OFFSET))
                         != be32(p + CRC_OFFSET))
        return 0;
    if (walk_records(p + HEADER_SIZE, p + n, count, 0) != CHECK_OK)
        return 0;
    h->batch_length = batch_length;
    h->last_offset_delta = last_offset_delta;
    h->count = count;
    h->max_timestamp = (int64_t)be64(p + MAX_TIMESTAMP_OFFSET);
    h->producer_id = (int64_t)be64(p + PRODUCER_ID_OFFSET);
    h->producer_epoch = (int16_t)be16(p + PRODUCER_EPOCH_OFFSET);
    h->base_sequence = (int32_t)be32(p + BASE_SEQUENCE_OFFSET);
    return 1;
}

static PyObject *header_tuple(const plain_header *h) {
    return Py_BuildValue("(iiLLhii)", h->batch_length, h->last_offset_delta,
                         (long long)h->max_timestamp, (long long)h->producer_id,
                         (short)h->producer_epoch, (int)h->base_sequence, (int)h->count);
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
    plain_header h;
    int plain = check_plain(b.buf, b.len, max_bytes, check_crc, &h);
    PyBuffer_Release(&b);
    if (!plain)
        Py_RETURN_NONE;
    return header_tuple(&h);
}

/* pwritev of the batch with its first 16 bytes rewritten (baseOffset, partitionLeaderEpoch);
 * 0 or an errno. Call without the GIL. */
static int write_rewritten(int fd, long long position, const char *body, Py_ssize_t n,
                           long long base_offset, int has_epoch, int32_t epoch) {
    unsigned char prefix[REWRITTEN_PREFIX];
    memcpy(prefix, body, REWRITTEN_PREFIX);
    uint64_t bo = __builtin_bswap64((uint64_t)base_offset);
    memcpy(prefix, &bo, 8);
    if (has_epoch) {
        uint32_t e = __builtin_bswap32((uint32_t)epoch);
        memcpy(prefix + PARTITION_LEADER_EPOCH_OFFSET, &e, 4);
    }
    Py_ssize_t done = 0;
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
            return errno;
        }
        done += w;
    }
    return 0;
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
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = write_rewritten(fd, position, (const char *)b.buf, b.len, base_offset, has_epoch,
                          (int32_t)epoch);
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&b);
    if (err) {
        errno = err;
        return PyErr_SetFromErrno(PyExc_OSError);
    }
    Py_RETURN_NONE;
}


/* AppendInfo: what PartitionLog.append returns (a named tuple made here, so that the
 * common append builds no Python object of its own). */
static PyStructSequence_Field append_info_fields[] = {
    {"base_offset", NULL},
    {"last_offset", NULL},
    {"log_append_time_ms", "-1 unless the topic/append uses LogAppendTime"},
    {"log_start_offset", NULL},
    {"record_count", NULL},
    {"max_timestamp", NULL},
    {"duplicate", "an idempotent retry: nothing written, original offsets"},
    {NULL, NULL},
};
static PyStructSequence_Desc append_info_desc = {
    "odradek.log._batchio.AppendInfo", "Result of PartitionLog.append.", append_info_fields, 7,
};
static PyTypeObject *AppendInfoType;

/* SegmentTail: the state of a segment's end that every append changes, as C fields
 * (Python reads and writes them as attributes: LogSegment subclasses this type), and
 * append_plain, the whole append of a plain batch in one call. */
typedef struct {
    PyObject_HEAD
    long long next_offset, size, max_offset, max_timestamp, offset_of_max_timestamp,
        first_batch_timestamp, created_ms, roll_jitter_ms, bytes_since_last_index,
        index_interval_bytes;
    char index_full, dirty;
    int fd;                 /* the .log file's descriptor, -1 when append_plain may not write */
    PyObject *log;          /* the .log FileHandle (a RealFile when fd >= 0: its _size follows) */
    PyObject *offset_index, *time_index;
    /* the indexes' arrays (array('q'), never replaced) and sizes, for append_plain */
    PyObject *oi_keys, *oi_values, *ti_keys, *ti_values;
    long long oi_max_entries, ti_max_entries;
} SegmentTail;

static PyObject *str_size;

static int tail_traverse(SegmentTail *self, visitproc visit, void *arg) {
    Py_VISIT(self->log);
    Py_VISIT(self->offset_index);
    Py_VISIT(self->time_index);
    Py_VISIT(self->oi_keys);
    Py_VISIT(self->oi_values);
    Py_VISIT(self->ti_keys);
    Py_VISIT(self->ti_values);
    return 0;
}

static int tail_clear(SegmentTail *self) {
    Py_CLEAR(self->log);
    Py_CLEAR(self->offset_index);
    Py_CLEAR(self->time_index);
    Py_CLEAR(self->oi_keys);
    Py_CLEAR(self->oi_values);
    Py_CLEAR(self->ti_keys);
    Py_CLEAR(self->ti_values);
    return 0;
}

static void tail_dealloc(SegmentTail *self) {
    PyObject_GC_UnTrack(self);
    tail_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *tail_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    SegmentTail *self = (SegmentTail *)type->tp_alloc(type, 0);
    if (self != NULL)
        self->fd = -1;
    return (PyObject *)self;
}

static PyObject *array_append; /* array.array.append, called unbound */

static int append_ll(PyObject *array, long long v) {
    PyObject *pv = PyLong_FromLongLong(v);
    if (pv == NULL)
        return -1;
    PyObject *args[2] = {array, pv};
    PyObject *r = PyObject_Vectorcall(array_append, args, 2, NULL);
    Py_DECREF(pv);
    if (r == NULL)
        return -1;
    Py_DECREF(r);
    return 0;
}

/* array[-1] of an array('q') of len > 0 items, read from its buffer */
static int last_ll(PyObject *array, Py_ssize_t len, long long *out) {
    Py_buffer v;
    if (PyObject_GetBuffer(array, &v, PyBUF_SIMPLE) < 0)
        return -1;
    int ok = len > 0 && v.len == len * (Py_ssize_t)sizeof(long long);
    if (ok)
        memcpy(out, (const char *)v.buf + (len - 1) * sizeof(long long), sizeof(long long));
    PyBuffer_Release(&v);
    if (!ok) {
        PyErr_SetString(PyExc_TypeError, "index arrays must be array('q')");
        return -1;
    }
    return 0;
}

/* LogSegment.append_batch after the write, for the batch written at `start` */
static int tail_track(SegmentTail *self, long long start, Py_ssize_t n, long long last,
                      long long max_ts) {
    if (self->first_batch_timestamp < 0 && max_ts >= 0)
        self->first_batch_timestamp = max_ts;
    if (max_ts > self->max_timestamp) {
        self->max_timestamp = max_ts;
        self->offset_of_max_timestamp = last;
    }
    if (self->bytes_since_last_index > self->index_interval_bytes) {
        /* offsets only grow here: OffsetIndex.append without its check */
        if (append_ll(self->oi_keys, last) < 0 || append_ll(self->oi_values, start) < 0)
            return -1;
        /* TimeIndex.append(max_timestamp, offset_of_max_timestamp) */
        Py_ssize_t tlen = PyObject_Length(self->ti_keys);
        if (tlen < 0)
            return -1;
        int add = 1;
        if (tlen > 0) {
            long long tk, tv;
            if (last_ll(self->ti_keys, tlen, &tk) < 0 || last_ll(self->ti_values, tlen, &tv) < 0)
                return -1;
            add = self->max_timestamp > tk && self->offset_of_max_timestamp >= tv;
        }
        if (add) {
            if (append_ll(self->ti_keys, self->max_timestamp) < 0
                || append_ll(self->ti_values, self->offset_of_max_timestamp) < 0)
                return -1;
            tlen++;
        }
        self->bytes_since_last_index = n;
        Py_ssize_t olen = PyObject_Length(self->oi_keys);
        if (olen < 0)
            return -1;
        self->index_full = olen >= self->oi_max_entries || tlen >= self->ti_max_entries;
    } else {
        self->bytes_since_last_index += n;
    }
    self->next_offset = last + 1;
    self->size = start + n;
    self->dirty = 1;
    return 0;
}

static PyObject *tail_append_plain(SegmentTail *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "append_plain(record_set, max_bytes, check_crc, now_ms, timestamp_after_max_ms, "
                        "segment_bytes, max_segment_ms, leader_epoch, log_start_offset)");
        return NULL;
    }
    long long v[6]; /* max_bytes, -, now_ms, after_max_ms, segment_bytes, max_segment_ms */
    for (int i = 1; i < 7; i++) {
        if (i == 2)
            continue;
        v[i - 1] = PyLong_AsLongLong(args[i]);
        if (v[i - 1] == -1 && PyErr_Occurred())
            return NULL;
    }
    int check_crc = PyObject_IsTrue(args[2]);
    if (check_crc < 0)
        return NULL;
    int has_epoch = args[7] != Py_None;
    long epoch = 0;
    if (has_epoch) {
        epoch = PyLong_AsLong(args[7]);
        if (epoch == -1 && PyErr_Occurred())
            return NULL;
        if (epoch < INT32_MIN || epoch > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError, "leader_epoch out of int32 range");
            return NULL;
        }
    }
    long long now_ms = v[2], after_max_ms = v[3], segment_bytes = v[4], max_segment_ms = v[5];
    Py_buffer b;
    if (PyObject_GetBuffer(args[0], &b, PyBUF_SIMPLE) < 0)
        return NULL;
    plain_header h;
    if (!check_plain(b.buf, b.len, v[0], check_crc, &h)) {
        PyBuffer_Release(&b);
        Py_RETURN_NONE;
    }
    Py_ssize_t n = b.len;
    long long base = -1, last = self->next_offset + h.last_offset_delta;
    long long size = self->size, fbt = self->first_batch_timestamp, max_ts = h.max_timestamp;
    /* else PartitionLog's Python path: producer state, a roll, or a timestamp to name */
    if (self->fd >= 0 && h.producer_id < 0 && max_ts <= now_ms + after_max_ms
        && !(size && (size > segment_bytes - n || self->index_full || last > self->max_offset
                      || (fbt >= 0 && max_ts >= 0 ? max_ts - fbt : now_ms - self->created_ms)
                             > max_segment_ms - self->roll_jitter_ms))) {
        PyObject *fsize = PyObject_GetAttr(self->log, str_size);
        long long start = fsize ? PyLong_AsLongLong(fsize) : -1;
        Py_XDECREF(fsize);
        if (fsize == NULL || (start == -1 && PyErr_Occurred())) {
            PyBuffer_Release(&b);
            return NULL;
        }
        int err, fd = self->fd;
        Py_BEGIN_ALLOW_THREADS
        err = write_rewritten(fd, start, (const char *)b.buf, n, self->next_offset, has_epoch,
                              (int32_t)epoch);
        Py_END_ALLOW_THREADS
        if (err) {
            PyBuffer_Release(&b);
            errno = err;
            return PyErr_SetFromErrno(PyExc_OSError);
        }
        PyObject *end = PyLong_FromLongLong(start + n);
        int bad = end == NULL || PyObject_SetAttr(self->log, str_size, end) < 0;
        Py_XDECREF(end);
        base = self->next_offset;
        if (bad || tail_track(self, start, n, last, max_ts) < 0) {
            PyBuffer_Release(&b);
            return NULL;
        }
    }
    PyBuffer_Release(&b);
    if (base < 0)
        return header_tuple(&h);
    PyObject *info = PyStructSequence_New(AppendInfoType);
    if (info == NULL)
        return NULL;
    PyObject *vals[7] = {PyLong_FromLongLong(base), PyLong_FromLongLong(last), PyLong_FromLong(-1),
                         Py_NewRef(args[8]), PyLong_FromLong(h.count), PyLong_FromLongLong(max_ts),
                         Py_NewRef(Py_False)};
    for (int i = 0; i < 7; i++) {
        if (vals[i] == NULL) {
            for (int j = 0; j < 7; j++)
                Py_XDECREF(vals[j]);
            Py_DECREF(info);
            return NULL;
        }
    }
    for (int i = 0; i < 7; i++)
        PyStructSequence_SET_ITEM(info, i, vals[i]);
    return info;
}

#define LL_MEMBER(name) {#name, T_LONGLONG, offsetof(SegmentTail, name), 0, NULL}
static PyMemberDef tail_members[] = {
    LL_MEMBER(next_offset), LL_MEMBER(size), LL_MEMBER(max_offset), LL_MEMBER(max_timestamp),
    LL_MEMBER(offset_of_max_timestamp), LL_MEMBER(first_batch_timestamp), LL_MEMBER(created_ms),
    LL_MEMBER(roll_jitter_ms), LL_MEMBER(bytes_since_last_index), LL_MEMBER(index_interval_bytes),
    {"index_full", T_BOOL, offsetof(SegmentTail, index_full), 0, NULL},
    {"dirty", T_BOOL, offsetof(SegmentTail, dirty), 0, NULL},
    {"fd", T_INT, offsetof(SegmentTail, fd), 0, NULL},
    {"log", T_OBJECT_EX, offsetof(SegmentTail, log), 0, NULL},
    {"offset_index", T_OBJECT_EX, offsetof(SegmentTail, offset_index), 0, NULL},
    {"time_index", T_OBJECT_EX, offsetof(SegmentTail, time_index), 0, NULL},
    {"_oi_keys", T_OBJECT_EX, offsetof(SegmentTail, oi_keys), 0, NULL},
    {"_oi_values", T_OBJECT_EX, offsetof(SegmentTail, oi_values), 0, NULL},
    {"_ti_keys", T_OBJECT_EX, offsetof(SegmentTail, ti_keys), 0, NULL},
    {"_ti_values", T_OBJECT_EX, offsetof(SegmentTail, ti_values), 0, NULL},
    {"_oi_max_entries", T_LONGLONG, offsetof(SegmentTail, oi_max_entries), 0, NULL},
    {"_ti_max_entries", T_LONGLONG, offsetof(SegmentTail, ti_max_entries), 0, NULL},
    {NULL},
};

static PyMethodDef tail_methods[] = {
    {"append_plain", (PyCFunction)(void (*)(void))tail_append_plain, METH_FASTCALL,
     "The AppendInfo of a plain batch written, else its header fields (plain_batch), or None."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject SegmentTailType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "odradek.log._batchio.SegmentTail",
    .tp_basicsize = sizeof(SegmentTail),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The end of a log segment: what each append changes, and append_plain.",
    .tp_new = tail_new,
    .tp_dealloc = (destructor)tail_dealloc,
    .tp_traverse = (traverseproc)tail_traverse,
    .tp_clear = (inquiry)tail_clear,
    .tp_members = tail_members,
    .tp_methods = tail_methods,
};

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
    if (!(str_size = PyUnicode_InternFromString("_size")))
        return NULL;
    PyObject *array_module = PyImport_ImportModule("array");
    if (array_module == NULL)
        return NULL;
    PyObject *array_type = PyObject_GetAttrString(array_module, "array");
    Py_DECREF(array_module);
    if (array_type == NULL)
        return NULL;
    array_append = PyObject_GetAttrString(array_type, "append");
    Py_DECREF(array_type);
    if (array_append == NULL)
        return NULL;
    if (PyType_Ready(&SegmentTailType) < 0)
        return NULL;
    AppendInfoType = PyStructSequence_NewType(&append_info_desc);
    if (AppendInfoType == NULL)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&SegmentTailType);
    if (PyModule_AddObject(m, "SegmentTail", (PyObject *)&SegmentTailType) < 0) {
        Py_DECREF(&SegmentTailType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddObject(m, "AppendInfo", (PyObject *)AppendInfoType) < 0) {
        Py_DECREF(AppendInfoType);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
