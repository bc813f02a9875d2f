/*
 * Tests of the bounds-checked little-endian reader (src/reader.h).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "reader.h"

static void test_little_endian_values(void **state)
{
    static const uint8_t bytes[] = {0x49, 0x44, 0x50, 0x32, 0xFE, 0xFF, 0x34, 0x12,
                                    0x00, 0x00, 0x80, 0x3F, 0xFF, 0xFF, 0xFF, 0xFF};
    md2_reader r;
    (void)state;
    md2_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(md2_read_s32(&r), 844121161); /* "IDP2" */
    assert_int_equal(md2_read_s16(&r), -2);
    assert_int_equal(md2_read_u16(&r), 0x1234);
    assert_true(md2_read_f32(&r) == 1.0f);
    assert_int_equal(md2_read_s32(&r), -1);
    assert_int_equal(r.pos, sizeof bytes);
    assert_int_equal(r.failed, 0);
}

static void test_signed_extremes(void **state)
{
    (void)state;
    assert_int_equal(md2_u32_to_s32(0x80000000u), INT32_MIN);
    assert_int_equal(md2_u32_to_s32(0x7FFFFFFFu), INT32_MAX);
    assert_int_equal(md2_u32_to_s32(0xFFFFFFFEu), -2);
    assert_int_equal(md2_u16_to_s16(0x8000u), -32768);
    assert_int_equal(md2_u16_to_s16(0x7FFFu), 32767);
}

static void test_read_past_end_fails_and_stays(void **state)
{
    static const uint8_t bytes[] = {1, 2, 3};
    md2_reader r;
    uint8_t dst[4] = {9, 9, 9, 9};
    (void)state;
    md2_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(md2_read_u16(&r), 0x0201);
    assert_int_equal(md2_read_u32(&r), 0); /* only 1 byte left */
    assert_int_equal(r.failed, 1);
    assert_int_equal(r.pos, 2);           /* position unchanged */
    assert_int_equal(md2_read_u8(&r), 3); /* the byte that is there still reads */
    assert_int_equal(md2_read_bytes(&r, dst, 4), 0);
    assert_int_equal(dst[0], 0);          /* zeroed on failure */
    assert_null(md2_reader_take(&r, 1));
}

static void test_seek_bounds(void **state)
{
    static const uint8_t bytes[8] = {0};
    md2_reader r;
    (void)state;
    md2_reader_init(&r, bytes, sizeof bytes);
    assert_int_equal(md2_reader_seek(&r, 8), 1); /* the end itself is fine */
    assert_int_equal(md2_reader_has(&r, 0), 1);
    assert_int_equal(md2_reader_has(&r, 1), 0);
    assert_int_equal(md2_reader_seek(&r, 9), 0);
    assert_int_equal(r.failed, 1);
    assert_int_equal(r.pos, 8);
}

static void test_huge_take_does_not_wrap(void **state)
{
    static const uint8_t bytes[4] = {0};
    md2_reader r;
    (void)state;
    md2_reader_init(&r, bytes, sizeof bytes);
    md2_reader_seek(&r, 2);
    assert_null(md2_reader_take(&r, SIZE_MAX));
    assert_null(md2_reader_take(&r, SIZE_MAX - 1));
    assert_int_equal(r.pos, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_little_endian_values),
        cmocka_unit_test(test_signed_extremes),
        cmocka_unit_test(test_read_past_end_fails_and_stays),
        cmocka_unit_test(test_seek_bounds),
        cmocka_unit_test(test_huge_take_does_not_wrap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
