// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * Hand-written table rows.  Each BAD() spells out the first error:
 *
 *	BAD(bytes, offset, length, reason, codepoint, shadow_length,
 *	    path_trick)
 *
 * length is the maximal subpart (what Python's strict codec reports as
 * e.end - e.start); codepoint and shadow_length are the complete RFC 2279
 * lenient reading at offset, 0 and 0 when it is incomplete.
 */
#include "array_size.h"
#include "table_rows.h"

#define VALID(hex) { hex, true, { 0, 0, 0, 0, 0, false } }
#define BAD(hex, off, len, why, cp, shadow, trick)			\
	{ hex, false,							\
	  { off, len, cp, UTF8GUARD_REASON_##why, shadow, trick } }
#define E(off, len, why, cp, shadow, trick)				\
	{ off, len, cp, UTF8GUARD_REASON_##why, shadow, trick }

/*
 * ABNF boundaries for the leads whose tail bytes are all 80..BF: the
 * second byte one below, at, and one above the edges of its range, and
 * the later bytes likewise.
 */
#define LEAD2(lead)							\
	BAD(#lead " 7F", 0, 1, TRUNCATED, 0, 0, false),			\
	VALID(#lead " 80"),						\
	VALID(#lead " BF"),						\
	BAD(#lead " C0", 0, 1, TRUNCATED, 0, 0, false)

#define LEAD3(lead)							\
	BAD(#lead " 7F 80", 0, 1, TRUNCATED, 0, 0, false),		\
	VALID(#lead " 80 80"),						\
	VALID(#lead " BF BF"),						\
	BAD(#lead " C0 80", 0, 1, TRUNCATED, 0, 0, false),		\
	BAD(#lead " 80 7F", 0, 2, TRUNCATED, 0, 0, false),		\
	BAD(#lead " BF C0", 0, 2, TRUNCATED, 0, 0, false)

#define LEAD4(lead)							\
	BAD(#lead " 7F 80 80", 0, 1, TRUNCATED, 0, 0, false),		\
	VALID(#lead " 80 80 80"),					\
	VALID(#lead " BF BF BF"),					\
	BAD(#lead " C0 80 80", 0, 1, TRUNCATED, 0, 0, false),		\
	BAD(#lead " 80 7F 80", 0, 2, TRUNCATED, 0, 0, false),		\
	BAD(#lead " BF C0 BF", 0, 2, TRUNCATED, 0, 0, false),		\
	BAD(#lead " 80 80 7F", 0, 3, TRUNCATED, 0, 0, false),		\
	BAD(#lead " BF BF C0", 0, 3, TRUNCATED, 0, 0, false)

const struct first_error_row first_error_rows[] = {
	VALID(""),

	/* RFC 3629 section 7 (the first three are RFC 2279 section 4) */
	VALID("41 E2 89 A2 CE 91 2E"),
	VALID("ED 95 9C EA B5 AD EC 96 B4"),
	VALID("E6 97 A5 E6 9C AC E8 AA 9E"),
	VALID("EF BB BF F0 A3 8E B4"),
	/* RFC 3629 section 3: what a naive decoder must not accept */
	BAD("C0 80", 0, 1, OVERLONG, 0x0, 2, true),
	BAD("ED A1 8C ED BE B4", 0, 1, SURROGATE, 0xD84C, 3, false),

	/* Attacks */
	BAD("2F C0 AE 2E 2F", 1, 1, OVERLONG, 0x2E, 2, true),
	BAD("C0 AE", 0, 1, OVERLONG, 0x2E, 2, true),
	BAD("2E 2E C0 AF", 2, 1, OVERLONG, 0x2F, 2, true),
	BAD("C1 9C", 0, 1, OVERLONG, 0x5C, 2, true),
	BAD("C0 8A", 0, 1, OVERLONG, 0x0A, 2, true),
	BAD("E0 80 80", 0, 1, OVERLONG, 0x0, 3, true),
	BAD("E0 80 AF", 0, 1, OVERLONG, 0x2F, 3, true),
	BAD("F0 80 80 AF", 0, 1, OVERLONG, 0x2F, 4, true),
	BAD("F8 80 80 80 AF", 0, 1, OVERLONG, 0x2F, 5, true),
	BAD("FC 80 80 80 80 AF", 0, 1, OVERLONG, 0x2F, 6, true),
	BAD("ED A0 80", 0, 1, SURROGATE, 0xD800, 3, false),
	BAD("F4 90 80 80", 0, 1, OUT_OF_RANGE, 0x110000, 4, false),
	BAD("E2 82", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F8 88 80 80 80", 0, 1, OUT_OF_RANGE, 0x200000, 5, false),
	BAD("61 2F C0 AE C0 AE 2F", 2, 1, OVERLONG, 0x2E, 2, true),

	/* path_trick is a lenient reading below 0x80 */
	BAD("C1 BF", 0, 1, OVERLONG, 0x7F, 2, true),
	BAD("E0 81 BF", 0, 1, OVERLONG, 0x7F, 3, true),
	BAD("E0 82 80", 0, 1, OVERLONG, 0x80, 3, false),
	BAD("F0 80 81 BF", 0, 1, OVERLONG, 0x7F, 4, true),
	BAD("F0 80 82 80", 0, 1, OVERLONG, 0x80, 4, false),

	/* Largest overlong of each length (Kuhn 4.2) */
	BAD("E0 9F BF", 0, 1, OVERLONG, 0x7FF, 3, false),
	BAD("F0 8F BF BF", 0, 1, OVERLONG, 0xFFFF, 4, false),
	BAD("F8 87 BF BF BF", 0, 1, OVERLONG, 0x1FFFFF, 5, false),
	BAD("FC 83 BF BF BF BF", 0, 1, OVERLONG, 0x3FFFFFF, 6, false),
	/* Overlong is decided before surrogate */
	BAD("F0 8D A0 80", 0, 1, OVERLONG, 0xD800, 4, false),
	BAD("F8 80 8D A0 80", 0, 1, OVERLONG, 0xD800, 5, false),

	/* Kuhn 2.1-2.3: boundaries that are well-formed */
	VALID("00"),
	VALID("C2 80"),
	VALID("E0 A0 80"),
	VALID("F0 90 80 80"),
	VALID("7F"),
	VALID("DF BF"),
	VALID("EF BF BF"),
	VALID("ED 9F BF"),
	VALID("EE 80 80"),
	VALID("EF BF BD"),
	VALID("F4 8F BF BF"),

	/* Lone continuation bytes */
	BAD("80", 0, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("81", 0, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("9F", 0, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("A0", 0, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("BF", 0, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("41 80", 1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("C2 80 80", 2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("E1 80 80 80", 3, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
	BAD("F1 80 80 80 80", 4, 1, UNEXPECTED_CONTINUATION, 0x0, 0,
	    false),

	/* FE and FF */
	BAD("FE", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FF", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FE 80 80 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FF BF BF BF BF BF BF", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("41 FE", 1, 1, INVALID_BYTE, 0x0, 0, false),

	/* C0 and C1: a lenient 2-byte form, never well-formed */
	BAD("C0 7F", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("C0 BF", 0, 1, OVERLONG, 0x3F, 2, true),
	BAD("C0 C0", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("C1 7F", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("C1 80", 0, 1, OVERLONG, 0x40, 2, true),
	BAD("C1 C0", 0, 1, INVALID_BYTE, 0x0, 0, false),

	/* C2..DF: second byte 80..BF */
	LEAD2(C2), LEAD2(C3), LEAD2(C4), LEAD2(C5), LEAD2(C6), LEAD2(C7),
	LEAD2(C8), LEAD2(C9), LEAD2(CA), LEAD2(CB), LEAD2(CC), LEAD2(CD),
	LEAD2(CE), LEAD2(CF), LEAD2(D0), LEAD2(D1), LEAD2(D2), LEAD2(D3),
	LEAD2(D4), LEAD2(D5), LEAD2(D6), LEAD2(D7), LEAD2(D8), LEAD2(D9),
	LEAD2(DA), LEAD2(DB), LEAD2(DC), LEAD2(DD), LEAD2(DE), LEAD2(DF),

	/* E0: second byte A0..BF */
	BAD("E0 7F 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("E0 9F 80", 0, 1, OVERLONG, 0x7C0, 3, false),
	VALID("E0 A0 80"),
	VALID("E0 BF BF"),
	BAD("E0 C0 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("E0 A0 7F", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("E0 BF C0", 0, 2, TRUNCATED, 0x0, 0, false),

	/* E1..EC, EE, EF: second byte 80..BF */
	LEAD3(E1), LEAD3(E2), LEAD3(E3), LEAD3(E4), LEAD3(E5), LEAD3(E6),
	LEAD3(E7), LEAD3(E8), LEAD3(E9), LEAD3(EA), LEAD3(EB), LEAD3(EC),
	LEAD3(EE), LEAD3(EF),

	/* ED: second byte 80..9F */
	BAD("ED 7F 80", 0, 1, TRUNCATED, 0x0, 0, false),
	VALID("ED 80 80"),
	VALID("ED 9F BF"),
	BAD("ED A0 80", 0, 1, SURROGATE, 0xD800, 3, false),
	BAD("ED BF BF", 0, 1, SURROGATE, 0xDFFF, 3, false),
	BAD("ED C0 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("ED 80 7F", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("ED 9F C0", 0, 2, TRUNCATED, 0x0, 0, false),

	/* F0: second byte 90..BF */
	BAD("F0 7F 80 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F0 8F 80 80", 0, 1, OVERLONG, 0xF000, 4, false),
	VALID("F0 90 80 80"),
	VALID("F0 BF BF BF"),
	BAD("F0 C0 80 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F0 90 7F 80", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F0 90 80 7F", 0, 3, TRUNCATED, 0x0, 0, false),
	BAD("F0 BF C0 80", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F0 BF BF C0", 0, 3, TRUNCATED, 0x0, 0, false),

	/* F1..F3: second byte 80..BF */
	LEAD4(F1), LEAD4(F2), LEAD4(F3),

	/* F4: second byte 80..8F */
	BAD("F4 7F 80 80", 0, 1, TRUNCATED, 0x0, 0, false),
	VALID("F4 80 80 80"),
	VALID("F4 8F BF BF"),
	BAD("F4 90 80 80", 0, 1, OUT_OF_RANGE, 0x110000, 4, false),
	BAD("F4 BF BF BF", 0, 1, OUT_OF_RANGE, 0x13FFFF, 4, false),
	BAD("F4 C0 80 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F4 8F 7F 80", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F4 80 80 C0", 0, 3, TRUNCATED, 0x0, 0, false),

	/* F5..F7: a lenient 4-byte form above U+10FFFF */
	BAD("F5 7F 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F5 80 80 80", 0, 1, OUT_OF_RANGE, 0x140000, 4, false),
	BAD("F5 BF BF BF", 0, 1, OUT_OF_RANGE, 0x17FFFF, 4, false),
	BAD("F5 C0 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F6 7F 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F6 80 80 80", 0, 1, OUT_OF_RANGE, 0x180000, 4, false),
	BAD("F6 BF BF BF", 0, 1, OUT_OF_RANGE, 0x1BFFFF, 4, false),
	BAD("F6 C0 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F7 7F 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F7 80 80 80", 0, 1, OUT_OF_RANGE, 0x1C0000, 4, false),
	BAD("F7 BF BF BF", 0, 1, OUT_OF_RANGE, 0x1FFFFF, 4, false),
	BAD("F7 C0 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),

	/* F8..FB: lenient 5-byte forms */
	BAD("F8 7F 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F8 80 80 80 80", 0, 1, OVERLONG, 0x0, 5, true),
	BAD("F8 BF BF BF BF", 0, 1, OUT_OF_RANGE, 0xFFFFFF, 5, false),
	BAD("F8 C0 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F9 7F 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F9 80 80 80 80", 0, 1, OUT_OF_RANGE, 0x1000000, 5, false),
	BAD("F9 BF BF BF BF", 0, 1, OUT_OF_RANGE, 0x1FFFFFF, 5, false),
	BAD("F9 C0 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FA 7F 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FA 80 80 80 80", 0, 1, OUT_OF_RANGE, 0x2000000, 5, false),
	BAD("FA BF BF BF BF", 0, 1, OUT_OF_RANGE, 0x2FFFFFF, 5, false),
	BAD("FA C0 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FB 7F 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FB 80 80 80 80", 0, 1, OUT_OF_RANGE, 0x3000000, 5, false),
	BAD("FB BF BF BF BF", 0, 1, OUT_OF_RANGE, 0x3FFFFFF, 5, false),
	BAD("FB C0 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),

	/* FC, FD: lenient 6-byte forms */
	BAD("FC 7F 80 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FC 80 80 80 80 80", 0, 1, OVERLONG, 0x0, 6, true),
	BAD("FC 84 80 80 80 80", 0, 1, OUT_OF_RANGE, 0x4000000, 6, false),
	BAD("FC BF BF BF BF BF", 0, 1, OUT_OF_RANGE, 0x3FFFFFFF, 6, false),
	BAD("FC C0 80 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FD 7F 80 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FD 80 80 80 80 80", 0, 1, OUT_OF_RANGE, 0x40000000, 6, false),
	BAD("FD BF BF BF BF BF", 0, 1, OUT_OF_RANGE, 0x7FFFFFFF, 6, false),
	BAD("FD C0 80 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),

	/* A continuation byte outside the lead's range, reading incomplete */
	BAD("E0 80", 0, 1, OVERLONG, 0x0, 0, false),
	BAD("E0 9F 41", 0, 1, OVERLONG, 0x0, 0, false),
	BAD("ED A0", 0, 1, SURROGATE, 0x0, 0, false),
	BAD("ED BF 41", 0, 1, SURROGATE, 0x0, 0, false),
	BAD("F0 80 80", 0, 1, OVERLONG, 0x0, 0, false),
	BAD("F0 8F 41 80", 0, 1, OVERLONG, 0x0, 0, false),
	BAD("F4 90", 0, 1, OUT_OF_RANGE, 0x0, 0, false),
	BAD("F4 90 80 41", 0, 1, OUT_OF_RANGE, 0x0, 0, false),
	BAD("F4 BF BF", 0, 1, OUT_OF_RANGE, 0x0, 0, false),

	/* Truncated by the end of the buffer */
	BAD("C2", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("DF", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("E2", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("E0 A0", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("ED 9F", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("EF BF", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F0", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F0 90", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("F0 90 80", 0, 3, TRUNCATED, 0x0, 0, false),
	BAD("F1 80 80", 0, 3, TRUNCATED, 0x0, 0, false),
	BAD("F4 8F BF", 0, 3, TRUNCATED, 0x0, 0, false),
	BAD("41 42 F3 BF BF", 2, 3, TRUNCATED, 0x0, 0, false),
	BAD("C0", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("C1", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F5 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("F8 88 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FC 84 80 80 80", 0, 1, INVALID_BYTE, 0x0, 0, false),
	BAD("FD", 0, 1, INVALID_BYTE, 0x0, 0, false),

	/* Truncated by the next byte */
	BAD("E2 82 41", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("E2 41", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F0 90 80 41", 0, 3, TRUNCATED, 0x0, 0, false),
	BAD("E2 82 E2 82 AC", 0, 2, TRUNCATED, 0x0, 0, false),
	BAD("C2 C2 80", 0, 1, TRUNCATED, 0x0, 0, false),
	BAD("F8 88 80 80 41", 0, 1, INVALID_BYTE, 0x0, 0, false),
};

const size_t first_error_row_count =
	ARRAY_SIZE(first_error_rows);

const struct error_list_row error_list_rows[] = {
	{ "2F C0 AE 2E 2F", 2, {
		E(1, 1, OVERLONG, 0x2E, 2, true),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	/* CESU-8 of U+233B4 (RFC 3629 section 3) */
	{ "ED A1 8C ED BE B4", 6, {
		E(0, 1, SURROGATE, 0xD84C, 3, false),
		E(1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, SURROGATE, 0xDFB4, 3, false),
		E(4, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(5, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	/* Start of Kuhn 3.4: C0, E0 80, F0 80 80, DF, EF BF */
	{ "C0 E0 80 F0 80 80 DF EF BF", 8, {
		E(0, 1, INVALID_BYTE, 0x0, 0, false),
		E(1, 1, OVERLONG, 0x0, 0, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, OVERLONG, 0x0, 0, false),
		E(4, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(5, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(6, 1, TRUNCATED, 0x0, 0, false),
		E(7, 2, TRUNCATED, 0x0, 0, false) } },
	{ "FE FE FF FF", 4, {
		E(0, 1, INVALID_BYTE, 0x0, 0, false),
		E(1, 1, INVALID_BYTE, 0x0, 0, false),
		E(2, 1, INVALID_BYTE, 0x0, 0, false),
		E(3, 1, INVALID_BYTE, 0x0, 0, false) } },
	{ "F8 88 80 80 80 41 FC 84 80 80 80 80", 11, {
		E(0, 1, OUT_OF_RANGE, 0x200000, 5, false),
		E(1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(4, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(6, 1, OUT_OF_RANGE, 0x4000000, 6, false),
		E(7, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(8, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(9, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(10, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(11, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	{ "E2 82 E2 82 AC E2", 2, {
		E(0, 2, TRUNCATED, 0x0, 0, false),
		E(5, 1, TRUNCATED, 0x0, 0, false) } },
	{ "F0 90 80 F0 90 80 80 80", 2, {
		E(0, 3, TRUNCATED, 0x0, 0, false),
		E(7, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	{ "E0 80 80 C0 AF", 5, {
		E(0, 1, OVERLONG, 0x0, 3, true),
		E(1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, OVERLONG, 0x2F, 2, true),
		E(4, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	/* A genuine U+FFFD (EF BF BD) between errors */
	{ "F4 90 80 80 EF BF BD 80", 5, {
		E(0, 1, OUT_OF_RANGE, 0x110000, 4, false),
		E(1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(7, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	{ "F1 80 80 E1 80 C2", 3, {
		E(0, 3, TRUNCATED, 0x0, 0, false),
		E(3, 2, TRUNCATED, 0x0, 0, false),
		E(5, 1, TRUNCATED, 0x0, 0, false) } },
	{ "41 ED A0 80 42 ED 9F BF 43", 3, {
		E(1, 1, SURROGATE, 0xD800, 3, false),
		E(2, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(3, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
	{ "C0 AE C0 AE 2F", 4, {
		E(0, 1, OVERLONG, 0x2E, 2, true),
		E(1, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false),
		E(2, 1, OVERLONG, 0x2E, 2, true),
		E(3, 1, UNEXPECTED_CONTINUATION, 0x0, 0, false) } },
};

const size_t error_list_row_count =
	ARRAY_SIZE(error_list_rows);

const struct pending_row pending_rows[] = {
	{ "", 0, UTF8GUARD_STEP_CLEAN, 0 },
	{ "41 42", 0, UTF8GUARD_STEP_CLEAN, 2 },
	{ "E2 82 AC", 0, UTF8GUARD_STEP_CLEAN, 3 },
	{ "41 E2 82", 0, UTF8GUARD_STEP_NEED_MORE, 1 },
	{ "E2 82", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	/* the shadow reading depends on the next byte */
	{ "E0 80", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	{ "E0 80 41", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "C0", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	{ "C0 41", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "C2 41", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "F4 90 80", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	{ "F8 88 80 80", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	{ "FC 84 80 80 80", 0, UTF8GUARD_STEP_NEED_MORE, 0 },
	{ "FC 84 80 80 80 80", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "FE", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "80", 0, UTF8GUARD_STEP_ERROR, 0 },
	{ "80 80 41 80", 2, UTF8GUARD_STEP_ERROR, 3 },
	{ "80 80 41 E2", 2, UTF8GUARD_STEP_NEED_MORE, 3 },
	{ "80 80 41 42", 2, UTF8GUARD_STEP_CLEAN, 4 },
};

const size_t pending_row_count =
	ARRAY_SIZE(pending_rows);
