/* CRC-32C (Castagnoli), the checksum of Kafka record batches, for the C extensions
 * (odradek/wire/_crc32c.c, odradek/log/_batchio.c). Header-only: each extension
 * gets its own copy of the tables; call crc32c_init() once before crc32c_update().
 *
 * On x86-64 with SSE4.2 the CRC32 instruction runs three independent streams over
 * adjacent blocks (hiding its 3-cycle latency) and the three CRCs are joined with
 * "append n zero bytes" operators: crc(A || B) = zeros_len(B)(crc(A)) ^ crc0(B), where
 * crc0 starts from a zero register. Elsewhere: table-driven, 8 bytes per step.
 * With AVX-512 and VPCLMULQDQ, inputs of 256 bytes or more are folded instead: four
 * 512-bit accumulators (sixteen 128-bit lanes) multiply their halves by x^k mod P
 * (carry-less) to move them 256 bytes ahead, where the next data is XORed in; the
 * lanes are then folded into one 128-bit value R with the same CRC as everything
 * before it, and the CRC32 instruction finishes R and the tail. Register R, bit m is
 * the coefficient of x^(127-m) (bit-reflected); the carry-less product of two
 * reflected 64-bit halves lands one bit low, so the constants are x^(8D+63) and
 * x^(8D-1) mod P for moving the low and high half D bytes ahead (crc32c_fold_pair).
 * All paths compute the same function as the `crc32c` Python package (tests compare
 * them, and each path separately through crc32c_path()).
 */
#ifndef ODRADEK_CRC32C_IMPL_H
#define ODRADEK_CRC32C_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define CRC32C_X86 1
#include <immintrin.h>
#include <nmmintrin.h>
#endif

#define CRC32C_POLY 0x82f63b78u /* reflected Castagnoli polynomial */
#define CRC32C_LONG 4096        /* bytes per stream, big inputs */
#define CRC32C_SHORT 256        /* bytes per stream, the rest */

static uint32_t crc32c_byte[8][256];         /* [k][b]: CRC of byte b then k zero bytes */
static uint32_t crc32c_long_zeros[4][256];   /* appends CRC32C_LONG zero bytes */
static uint32_t crc32c_short_zeros[4][256];  /* appends CRC32C_SHORT zero bytes */
static int crc32c_hw;       /* SSE4.2 CRC32 instruction */
static int crc32c_fold_hw; /* AVX-512F + VPCLMULQDQ (and the OS saves zmm state) */
static uint64_t crc32c_fold_k[4][2]; /* {x^(8D+63), x^(8D-1)} mod P for D = 256, 64, 32, 16 */
static uint64_t crc32c_lane_k[3][2]; /* ... for D = 48, 32, 16: lanes 0-2 onto lane 3 */

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

/* x^e mod P as the upper half of a reflected 64-bit carry-less operand */
static uint64_t crc32c_xpow(unsigned e) {
    uint32_t r = 0x80000000u; /* x^0 */
    while (e--)
        r = (r >> 1) ^ (r & 1 ? CRC32C_POLY : 0);
    return (uint64_t)r << 32;
}

static void crc32c_fold_pair(uint64_t k[2], unsigned bytes) {
    k[0] = crc32c_xpow(8 * bytes + 63);
    k[1] = crc32c_xpow(8 * bytes - 1);
}

static void crc32c_init(void) {
    static const unsigned fold_bytes[4] = {256, 64, 32, 16}, lane_bytes[3] = {48, 32, 16};
    for (int i = 0; i < 4; i++)
        crc32c_fold_pair(crc32c_fold_k[i], fold_bytes[i]);
    for (int i = 0; i < 3; i++)
        crc32c_fold_pair(crc32c_lane_k[i], lane_bytes[i]);
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
    crc32c_fold_hw = crc32c_hw && __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("avx512f")
                     && __builtin_cpu_supports("vpclmulqdq");
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

#ifdef CRC32C_X86
#define CRC32C_FOLD_MIN 256
#define CRC32C_FOLD_TARGET __attribute__((target("sse4.2,pclmul,avx512f,vpclmulqdq")))

/* x's 128-bit lanes moved ahead by the bytes of k's pair, XORed with data */
CRC32C_FOLD_TARGET static inline __m512i crc32c_fold512(__m512i x, __m512i k, __m512i data) {
    return _mm512_ternarylogic_epi64(_mm512_clmulepi64_epi128(x, k, 0x00),
                                     _mm512_clmulepi64_epi128(x, k, 0x11), data, 0x96);
}

CRC32C_FOLD_TARGET static inline __m128i crc32c_fold128(__m128i x, __m128i k, __m128i data) {
    return _mm_xor_si128(_mm_xor_si128(_mm_clmulepi64_si128(x, k, 0x00),
                                       _mm_clmulepi64_si128(x, k, 0x11)), data);
}

CRC32C_FOLD_TARGET static inline __m512i crc32c_k512(const uint64_t k[2]) {
    return _mm512_broadcast_i32x4(_mm_set_epi64x((long long)k[1], (long long)k[0]));
}

/* register in, register out; n >= CRC32C_FOLD_MIN */
CRC32C_FOLD_TARGET static uint32_t crc32c_fold(uint32_t crc, const unsigned char *p, size_t n) {
    __m512i x0 = _mm512_xor_si512(_mm512_loadu_si512(p), _mm512_zextsi128_si512(_mm_cvtsi32_si128((int)crc)));
    __m512i x1 = _mm512_loadu_si512(p + 64), x2 = _mm512_loadu_si512(p + 128),
            x3 = _mm512_loadu_si512(p + 192);
    p += 256;
    n -= 256;
    const __m512i k256 = crc32c_k512(crc32c_fold_k[0]), k64 = crc32c_k512(crc32c_fold_k[1]);
    for (; n >= 256; p += 256, n -= 256) {
        x0 = crc32c_fold512(x0, k256, _mm512_loadu_si512(p));
        x1 = crc32c_fold512(x1, k256, _mm512_loadu_si512(p + 64));
        x2 = crc32c_fold512(x2, k256, _mm512_loadu_si512(p + 128));
        x3 = crc32c_fold512(x3, k256, _mm512_loadu_si512(p + 192));
    }
    x1 = crc32c_fold512(x0, k64, x1);
    x2 = crc32c_fold512(x1, k64, x2);
    x3 = crc32c_fold512(x2, k64, x3);
    for (; n >= 64; p += 64, n -= 64)
        x3 = crc32c_fold512(x3, k64, _mm512_loadu_si512(p));
    /* lanes 0, 1, 2 move 48, 32, 16 bytes ahead onto lane 3 (its own constants are 0) */
    const __m512i kl = _mm512_set_epi64(0, 0, (long long)crc32c_lane_k[2][1], (long long)crc32c_lane_k[2][0],
                                        (long long)crc32c_lane_k[1][1], (long long)crc32c_lane_k[1][0],
                                        (long long)crc32c_lane_k[0][1], (long long)crc32c_lane_k[0][0]);
    __m512i m = crc32c_fold512(x3, kl, _mm512_setzero_si512());
    __m128i r = _mm_xor_si128(_mm_xor_si128(_mm512_extracti32x4_epi32(m, 0), _mm512_extracti32x4_epi32(m, 1)),
                              _mm_xor_si128(_mm512_extracti32x4_epi32(m, 2), _mm512_extracti32x4_epi32(x3, 3)));
    const __m128i k16 = _mm_set_epi64x((long long)crc32c_fold_k[3][1], (long long)crc32c_fold_k[3][0]);
    for (; n >= 16; p += 16, n -= 16)
        r = crc32c_fold128(r, k16, _mm_loadu_si128((const __m128i *)p));
    uint64_t c = _mm_crc32_u64(0, (uint64_t)_mm_cvtsi128_si64(r));
    c = _mm_crc32_u64(c, (uint64_t)_mm_extract_epi64(r, 1));
    return crc32c_x86((uint32_t)c, p, n); /* the last n < 16 bytes */
}
#endif

/* CRC-32C of p[0:n] continuing from the CRC `crc` of what came before (0 to start) */
static inline uint32_t crc32c_update(uint32_t crc, const void *data, size_t n) {
    const unsigned char *p = data;
#ifdef CRC32C_X86
    if (crc32c_fold_hw && n >= CRC32C_FOLD_MIN)
        return ~crc32c_fold(~crc, p, n);
    if (crc32c_hw)
        return ~crc32c_x86(~crc, p, n);
#endif
    return ~crc32c_sw(~crc, p, n);
}

#endif
