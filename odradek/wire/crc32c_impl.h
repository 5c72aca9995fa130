/* CRC-32C (Castagnoli), the checksum of Kafka record batches, for the C extensions
 * (odradek/wire/_crc32c.c, odradek/log/_batchio.c). Header-only: each extension
 * gets its own copy of the tables; call crc32c_init() once before crc32c_update().
 *
 * On x86-64 with SSE4.2 the CRC32 instruction runs three independent streams over
 * adjacent blocks (hiding its 3-cycle latency) and the three CRCs are joined with
 * "append n zero bytes" operators: crc(A || B) = zeros_len(B)(crc(A)) ^ crc0(B), where
 * crc0 starts from a zero register. Elsewhere: table-driven, 8 bytes per step.
 * Both compute the same function as the `crc32c` Python package (tests compare them).
 */
#ifndef ODRADEK_CRC32C_IMPL_H
#define ODRADEK_CRC32C_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32C_X86 1
#include <nmmintrin.h>
#endif

#define CRC32C_POLY 0x82f63b78u /* reflected Castagnoli polynomial */
#define CRC32C_LONG 4096        /* bytes per stream, big inputs */
#define CRC32C_SHORT 256        /* bytes per stream, the rest */

static uint32_t crc32c_byte[8][256];         /* [k][b]: CRC of byte b then k zero bytes */
static uint32_t crc32c_long_zeros[4][256];   /* appends CRC32C_LONG zero bytes */
static uint32_t crc32c_short_zeros[4][256];  /* appends CRC32C_SHORT zero bytes */
static int crc32c_hw;

/* GF(2) 32x32 matrices as 32 columns: column n is the image of bit n. */
static uint32_t crc32c_mat_times(const uint32_t *mat, uint32_t vec) {
    uint32_t sum = 0;
    for (; vec; vec >>= 1, mat++)
        if (vec & 1)
            sum ^= *mat;
    return sum;
}

/* table of the operator "append `bytes` zero bytes" (bytes a power of two) */
static void crc32c_zeros_table(uint32_t table[4][256], size_t bytes) {
    uint32_t op[32], sq[32];
    /* one zero bit: bit 0 feeds back the polynomial, every other bit moves down one */
    op[0] = CRC32C_POLY;
    for (int n = 1; n < 32; n++)
        op[n] = 1u << (n - 1);
    for (size_t bits = bytes * 8; bits > 1; bits >>= 1) { /* square: twice the zeros */
        for (int n = 0; n < 32; n++)
            sq[n] = crc32c_mat_times(op, op[n]);
        memcpy(op, sq, sizeof op);
    }
    for (int k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 256; b++)
            table[k][b] = crc32c_mat_times(op, b << (8 * k));
}

static inline uint32_t crc32c_shift(uint32_t table[4][256], uint32_t crc) {
    return table[0][crc & 0xff] ^ table[1][(crc >> 8) & 0xff] ^ table[2][(crc >> 16) & 0xff]
           ^ table[3][crc >> 24];
}

static void crc32c_init(void) {
    for (uint32_t b = 0; b < 256; b++) {
        uint32_t c = b;
        for (int k = 0; k < 8; k++)
            c = c & 1 ? (c >> 1) ^ CRC32C_POLY : c >> 1;
        crc32c_byte[0][b] = c;
    }
    for (uint32_t b = 0; b < 256; b++)
        for (int k = 1; k < 8; k++) {
            uint32_t c = crc32c_byte[k - 1][b];
            crc32c_byte[k][b] = crc32c_byte[0][c & 0xff] ^ (c >> 8);
        }
    crc32c_zeros_table(crc32c_long_zeros, CRC32C_LONG);
    crc32c_zeros_table(crc32c_short_zeros, CRC32C_SHORT);
#ifdef CRC32C_X86
    __builtin_cpu_init();
    crc32c_hw = __builtin_cpu_supports("sse4.2");
#endif
}

/* register in, register out (no pre/post inversion) */
static uint32_t crc32c_sw(uint32_t crc, const unsigned char *p, size_t n) {
    while (n && ((uintptr_t)p & 7)) {
        crc = crc32c_byte[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
        n--;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        w ^= crc;
        crc = crc32c_byte[7][w & 0xff] ^ crc32c_byte[6][(w >> 8) & 0xff]
              ^ crc32c_byte[5][(w >> 16) & 0xff] ^ crc32c_byte[4][(w >> 24) & 0xff]
              ^ crc32c_byte[3][(w >> 32) & 0xff] ^ crc32c_byte[2][(w >> 40) & 0xff]
              ^ crc32c_byte[1][(w >> 48) & 0xff] ^ crc32c_byte[0][w >> 56];
    }
#endif
    while (n--)
        crc = crc32c_byte[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return crc;
}

#ifdef CRC32C_X86
/* three streams of `block` bytes each, joined; p and n advance */
#define CRC32C_3WAY(block, zeros)                                                      \
    while (n >= 3 * (block)) {                                                         \
        uint64_t c1 = 0, c2 = 0;                                                       \
        const unsigned char *end = p + (block);                                        \
        do {                                                                           \
            uint64_t w0, w1, w2;                                                       \
            memcpy(&w0, p, 8);                                                         \
            memcpy(&w1, p + (block), 8);                                               \
            memcpy(&w2, p + 2 * (block), 8);                                           \
            c0 = _mm_crc32_u64(c0, w0);                                                \
            c1 = _mm_crc32_u64(c1, w1);                                                \
            c2 = _mm_crc32_u64(c2, w2);                                                \
            p += 8;                                                                    \
        } while (p < end);                                                             \
        c0 = crc32c_shift(zeros, (uint32_t)c0) ^ (uint32_t)c1;                         \
        c0 = crc32c_shift(zeros, (uint32_t)c0) ^ (uint32_t)c2;                         \
        p += 2 * (block);                                                              \
        n -= 3 * (block);                                                              \
    }

__attribute__((target("sse4.2"))) static uint32_t crc32c_x86(uint32_t crc, const unsigned char *p,
                                                             size_t n) {
    uint64_t c0 = crc;
    while (n && ((uintptr_t)p & 7)) {
        c0 = _mm_crc32_u8((uint32_t)c0, *p++);
        n--;
    }
    CRC32C_3WAY(CRC32C_LONG, crc32c_long_zeros)
    CRC32C_3WAY(CRC32C_SHORT, crc32c_short_zeros)
    for (; n >= 8; p += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        c0 = _mm_crc32_u64(c0, w);
    }
    while (n--)
        c0 = _mm_crc32_u8((uint32_t)c0, *p++);
    return (uint32_t)c0;
}
#endif

/* CRC-32C of p[0:n] continuing from the CRC `crc` of what came before (0 to start) */
static inline uint32_t crc32c_update(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
#ifdef CRC32C_X86
    if (crc32c_hw)
        return ~crc32c_x86(~crc, p, n);
#endif
    return ~crc32c_sw(~crc, p, n);
}

#endif
