/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * cuda_ptx - the --validate kernels for GPU buffers, as PTX text that the
 * CUDA driver compiles (JIT) for whatever GPU it finds: no CUDA toolkit at
 * build time, one text for every GPU from sm_52 (Maxwell) to sm_90 (H200).
 * Included by gpu/cuda_drv.c only.
 *
 * Written by hand, not generated: nvcc 13 emits PTX ISA 9.0, which drivers
 * older than R580 refuse to load, while ".version 6.0" (CUDA 9) loads on
 * any driver that has dmabuf or peermem. Check it with
 *   ptxas -arch=sm_90 k.ptx   (the text below, without the C quoting)
 *
 * Both kernels compute lib/pattern.c byte for byte:
 *   base  = size * 0x9e3779b97f4a7c15 ^ iter * 0xbf58476d1ce4e5b9 (host)
 *   z     = base ^ (off / 8 + 1) * 0x94d049bb133111eb
 *   z     = (z ^ z >> 30) * 0xbf58476d1ce4e5b9
 *   z     = (z ^ z >> 27) * 0x94d049bb133111eb
 *   byte  = (z ^ z >> 31) >> 8 * (off % 8), or the marker at off size - 1
 * If pattern.c changes, change this with it: tests/gpu/test_gpu.c compares
 * the two on a GPU.
 *
 * rdmabench_fill(ptr, len, base, marker): ptr[off] = byte(off), off < len.
 * rdmabench_check(ptr, len, base, marker, res): for every wrong byte,
 *   res[0] = min(res[0], off << 16 | expected << 8 | actual) and res[1]++;
 *   the caller sets res = { UINT64_MAX, 0 } first. Packing the bytes under
 *   the offset lets one atomic min keep the first miss with its values.
 * Both walk the buffer with a grid-stride loop, one byte per step, from
 * the parameter first on (the bytes before it are another kernel's).
 *
 * rdmabench_fill8 and rdmabench_check8 do the same a word at a time, for
 * the words [0, len / 8) of an 8-byte aligned ptr: the pattern's word w
 * is z(w) itself in little-endian order, so one hash and one 8-byte
 * access cover 8 bytes (the byte kernels spend a hash per byte). The
 * marker is patched into byte 7 of the word that ends at len - 1. A
 * word that differs gives its first wrong byte (the lowest set bit of
 * the XOR: brev + clz) to the atomic min and its count of wrong bytes
 * (bytes of the XOR that are not zero: fold each byte onto its bit 0,
 * popc) to the count. The caller runs the byte kernels for the tail
 * (first = len & ~7) and for a ptr that is not 8-byte aligned.
 */
#ifndef RDMABENCH_GPU_CUDA_PTX_H
#define RDMABENCH_GPU_CUDA_PTX_H

/* The mix of lib/pattern.c: z (%rd8) from the word number + 1 in %rd8
 * and base (%rd3); %rd9 is scratch. */
#define CUDA_PTX_MIX                                                     \
	"	mul.lo.u64 %rd8, %rd8, 0x94D049BB133111EBU;\n"           \
	"	xor.b64 %rd8, %rd8, %rd3;\n"                             \
	"	shr.u64 %rd9, %rd8, 30;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"                             \
	"	mul.lo.u64 %rd8, %rd8, 0xBF58476D1CE4E5B9U;\n"           \
	"	shr.u64 %rd9, %rd8, 27;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"                             \
	"	mul.lo.u64 %rd8, %rd8, 0x94D049BB133111EBU;\n"           \
	"	shr.u64 %rd9, %rd8, 31;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"

/* The byte kernels' value: byte off (%rd4) of its word, in %r7. */
#define CUDA_PTX_PATTERN_BYTE                                            \
	"	shr.u64 %rd8, %rd4, 3;\n"                                \
	"	add.u64 %rd8, %rd8, 1;\n"                                \
	CUDA_PTX_MIX                                                     \
	"	cvt.u32.u64 %r6, %rd4;\n"                                \
	"	and.b32 %r6, %r6, 7;\n"                                  \
	"	shl.b32 %r6, %r6, 3;\n"                                  \
	"	shr.u64 %rd8, %rd8, %r6;\n"                              \
	"	cvt.u32.u64 %r7, %rd8;\n"                                \
	"	setp.eq.u64 %p2, %rd4, %rd7;\n"                          \
	"	selp.b32 %r7, %r1, %r7, %p2;\n"                          \
	"	and.b32 %r7, %r7, 255;\n"                                \
	"	add.u64 %rd10, %rd1, %rd4;\n"

/* Prologue: %rd1 ptr, %rd2 len, %rd3 base, %r1 marker, %rd4 first off,
 * %rd6 stride, %rd7 len - 1; P is the parameter name prefix. */
#define CUDA_PTX_PROLOGUE(P)                                             \
	"	ld.param.u64 %rd1, [" P "_ptr];\n"                       \
	"	ld.param.u64 %rd2, [" P "_len];\n"                       \
	"	ld.param.u64 %rd3, [" P "_base];\n"                      \
	"	ld.param.u32 %r1, [" P "_marker];\n"                     \
	"	cvta.to.global.u64 %rd1, %rd1;\n"                        \
	"	mov.u32 %r2, %ctaid.x;\n"                                \
	"	mov.u32 %r3, %ntid.x;\n"                                 \
	"	mov.u32 %r4, %tid.x;\n"                                  \
	"	mov.u32 %r5, %nctaid.x;\n"                               \
	"	mul.wide.u32 %rd4, %r2, %r3;\n"                          \
	"	cvt.u64.u32 %rd5, %r4;\n"                                \
	"	add.u64 %rd4, %rd4, %rd5;\n"                             \
	"	mul.wide.u32 %rd6, %r5, %r3;\n"                          \
	"	sub.u64 %rd7, %rd2, 1;\n"

/* The byte kernels start at the parameter first (after the prologue). */
#define CUDA_PTX_FIRST(P)                            \
	"	ld.param.u64 %rd5, [" P "_first];\n" \
	"	add.u64 %rd4, %rd4, %rd5;\n"

/* z (%rd8) of word %rd4, the marker patched in when the word ends at
 * len - 1 (%rd7); %rd12 holds (marker & 255) << 56. */
#define CUDA_PTX_PATTERN_WORD                            \
	"	add.u64 %rd8, %rd4, 1;\n"                      \
	CUDA_PTX_MIX                                                     \
	"	shl.b64 %rd10, %rd4, 3;\n"                     \
	"	add.u64 %rd9, %rd10, 7;\n"                     \
	"	setp.eq.u64 %p2, %rd9, %rd7;\n"                \
	"	and.b64 %rd9, %rd8, 0x00FFFFFFFFFFFFFFU;\n"    \
	"	or.b64 %rd9, %rd9, %rd12;\n"                   \
	"	selp.b64 %rd8, %rd9, %rd8, %p2;\n"             \
	"	add.u64 %rd10, %rd1, %rd10;\n"

/* The word kernels' set-up: %rd11 words, %rd12 the marker in byte 7. */
#define CUDA_PTX_WORDS                  \
	"	shr.u64 %rd11, %rd2, 3;\n"    \
	"	cvt.u64.u32 %rd12, %r1;\n"    \
	"	and.b64 %rd12, %rd12, 255;\n" \
	"	shl.b64 %rd12, %rd12, 56;\n"

static const char cuda_ptx_text[] =
	".version 6.0\n"
	".target sm_52\n"
	".address_size 64\n"
	"\n"
	".visible .entry rdmabench_fill(\n"
	"	.param .u64 fill_ptr,\n"
	"	.param .u64 fill_len,\n"
	"	.param .u64 fill_base,\n"
	"	.param .u32 fill_marker,\n"
	"	.param .u64 fill_first\n"
	")\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<11>;\n" CUDA_PTX_PROLOGUE("fill") CUDA_PTX_FIRST(
		"fill") "	setp.ge.u64 %p1, %rd4, %rd2;\n"
			"	@%p1 bra FILL_DONE;\n"
			"FILL_LOOP:\n" CUDA_PTX_PATTERN_BYTE
			"	st.global.u8 [%rd10], %r7;\n"
			"	add.u64 %rd4, %rd4, %rd6;\n"
			"	setp.lt.u64 %p1, %rd4, %rd2;\n"
			"	@%p1 bra FILL_LOOP;\n"
			"FILL_DONE:\n"
			"	ret;\n"
			"}\n"
			"\n"
			".visible .entry rdmabench_check(\n"
			"	.param .u64 check_ptr,\n"
			"	.param .u64 check_len,\n"
			"	.param .u64 check_base,\n"
			"	.param .u32 check_marker,\n"
			"	.param .u64 check_res,\n"
			"	.param .u64 check_first\n"
			")\n"
			"{\n"
			"	.reg .pred %p<4>;\n"
			"	.reg .b32 %r<10>;\n"
			"	.reg .b64 %rd<16>;\n" CUDA_PTX_PROLOGUE("check") CUDA_PTX_FIRST(
				"check") "	ld.param.u64 %rd14, [check_res];\n"
					 "	cvta.to.global.u64 %rd14, %rd14;\n"
					 "	add.u64 %rd15, %rd14, 8;\n"
					 "	setp.ge.u64 %p1, %rd4, %rd2;\n"
					 "	@%p1 bra CHECK_DONE;\n"
					 "CHECK_LOOP:\n" CUDA_PTX_PATTERN_BYTE
					 "	ld.global.u8 %r8, [%rd10];\n"
					 "	setp.eq.u32 %p3, %r7, %r8;\n"
					 "	@%p3 bra CHECK_NEXT;\n"
					 "	shl.b64 %rd11, %rd4, 16;\n"
					 "	shl.b32 %r9, %r7, 8;\n"
					 "	or.b32 %r9, %r9, %r8;\n"
					 "	cvt.u64.u32 %rd12, %r9;\n"
					 "	or.b64 %rd11, %rd11, %rd12;\n"
					 "	atom.global.min.u64 %rd13, [%rd14], %rd11;\n"
					 "	atom.global.add.u64 %rd13, [%rd15], 1;\n"
					 "CHECK_NEXT:\n"
					 "	add.u64 %rd4, %rd4, %rd6;\n"
					 "	setp.lt.u64 %p1, %rd4, %rd2;\n"
					 "	@%p1 bra CHECK_LOOP;\n"
					 "CHECK_DONE:\n"
					 "	ret;\n"
					 "}\n"
					 "\n"
					 ".visible .entry rdmabench_fill8(\n"
					 "	.param .u64 fill8_ptr,\n"
					 "	.param .u64 fill8_len,\n"
					 "	.param .u64 fill8_base,\n"
					 "	.param .u32 fill8_marker\n"
					 ")\n"
					 "{\n"
					 "	.reg .pred %p<3>;\n"
					 "	.reg .b32 %r<8>;\n"
					 "	.reg .b64 %rd<16>;\n" CUDA_PTX_PROLOGUE(
						 "fill8") CUDA_PTX_WORDS
	"	setp.ge.u64 %p1, %rd4, %rd11;\n"
	"	@%p1 bra FILL8_DONE;\n"
	"FILL8_LOOP:\n" CUDA_PTX_PATTERN_WORD
	"	st.global.u64 [%rd10], %rd8;\n"
	"	add.u64 %rd4, %rd4, %rd6;\n"
	"	setp.lt.u64 %p1, %rd4, %rd11;\n"
	"	@%p1 bra FILL8_LOOP;\n"
	"FILL8_DONE:\n"
	"	ret;\n"
	"}\n"
	"\n"
	".visible .entry rdmabench_check8(\n"
	"	.param .u64 check8_ptr,\n"
	"	.param .u64 check8_len,\n"
	"	.param .u64 check8_base,\n"
	"	.param .u32 check8_marker,\n"
	"	.param .u64 check8_res\n"
	")\n"
	"{\n"
	"	.reg .pred %p<4>;\n"
	"	.reg .b32 %r<12>;\n"
	"	.reg .b64 %rd<24>;\n" CUDA_PTX_PROLOGUE("check8") CUDA_PTX_WORDS
	"	ld.param.u64 %rd14, [check8_res];\n"
	"	cvta.to.global.u64 %rd14, %rd14;\n"
	"	add.u64 %rd15, %rd14, 8;\n"
	"	setp.ge.u64 %p1, %rd4, %rd11;\n"
	"	@%p1 bra CHECK8_DONE;\n"
	"CHECK8_LOOP:\n" CUDA_PTX_PATTERN_WORD
	"	ld.global.u64 %rd13, [%rd10];\n"
	"	xor.b64 %rd16, %rd13, %rd8;\n"
	"	setp.eq.u64 %p3, %rd16, 0;\n"
	"	@%p3 bra CHECK8_NEXT;\n"
	/* the first wrong byte: pos = ctz(xor) / 8, its shift pos * 8 */
	"	brev.b64 %rd17, %rd16;\n"
	"	clz.b64 %r8, %rd17;\n"
	"	and.b32 %r8, %r8, 0xFFFFFFF8;\n"
	"	shr.u64 %rd17, %rd8, %r8;\n"
	"	cvt.u32.u64 %r9, %rd17;\n"
	"	and.b32 %r9, %r9, 255;\n"
	"	shr.u64 %rd17, %rd13, %r8;\n"
	"	cvt.u32.u64 %r10, %rd17;\n"
	"	and.b32 %r10, %r10, 255;\n"
	"	shl.b32 %r9, %r9, 8;\n"
	"	or.b32 %r9, %r9, %r10;\n"
	"	shr.u32 %r8, %r8, 3;\n"
	"	shl.b64 %rd18, %rd4, 3;\n"
	"	cvt.u64.u32 %rd19, %r8;\n"
	"	add.u64 %rd18, %rd18, %rd19;\n"
	"	shl.b64 %rd18, %rd18, 16;\n"
	"	cvt.u64.u32 %rd19, %r9;\n"
	"	or.b64 %rd18, %rd18, %rd19;\n"
	"	atom.global.min.u64 %rd20, [%rd14], %rd18;\n"
	/* wrong bytes: each byte of the xor folded onto its bit 0 */
	"	shr.u64 %rd17, %rd16, 4;\n"
	"	or.b64 %rd16, %rd16, %rd17;\n"
	"	shr.u64 %rd17, %rd16, 2;\n"
	"	or.b64 %rd16, %rd16, %rd17;\n"
	"	shr.u64 %rd17, %rd16, 1;\n"
	"	or.b64 %rd16, %rd16, %rd17;\n"
	"	and.b64 %rd16, %rd16, 0x0101010101010101U;\n"
	"	popc.b64 %r11, %rd16;\n"
	"	cvt.u64.u32 %rd19, %r11;\n"
	"	atom.global.add.u64 %rd20, [%rd15], %rd19;\n"
	"CHECK8_NEXT:\n"
	"	add.u64 %rd4, %rd4, %rd6;\n"
	"	setp.lt.u64 %p1, %rd4, %rd11;\n"
	"	@%p1 bra CHECK8_LOOP;\n"
	"CHECK8_DONE:\n"
	"	ret;\n"
	"}\n";

#endif
