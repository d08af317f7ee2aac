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
 * Both walk the buffer with a grid-stride loop, one byte per step.
 */
#ifndef RDMABENCH_GPU_CUDA_PTX_H
#define RDMABENCH_GPU_CUDA_PTX_H

/* The word computation shared by both kernels: z (%rd8) from off (%rd4). */
#define CUDA_PTX_PATTERN_BYTE                                            \
	"	shr.u64 %rd8, %rd4, 3;\n"                                \
	"	add.u64 %rd8, %rd8, 1;\n"                                \
	"	mul.lo.u64 %rd8, %rd8, 0x94D049BB133111EBU;\n"           \
	"	xor.b64 %rd8, %rd8, %rd3;\n"                             \
	"	shr.u64 %rd9, %rd8, 30;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"                             \
	"	mul.lo.u64 %rd8, %rd8, 0xBF58476D1CE4E5B9U;\n"           \
	"	shr.u64 %rd9, %rd8, 27;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"                             \
	"	mul.lo.u64 %rd8, %rd8, 0x94D049BB133111EBU;\n"           \
	"	shr.u64 %rd9, %rd8, 31;\n"                               \
	"	xor.b64 %rd8, %rd8, %rd9;\n"                             \
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

static const char cuda_ptx_text[] =
	".version 6.0\n"
	".target sm_52\n"
	".address_size 64\n"
	"\n"
	".visible .entry rdmabench_fill(\n"
	"	.param .u64 fill_ptr,\n"
	"	.param .u64 fill_len,\n"
	"	.param .u64 fill_base,\n"
	"	.param .u32 fill_marker\n"
	")\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<8>;\n"
	"	.reg .b64 %rd<11>;\n"
	CUDA_PTX_PROLOGUE("fill")
	"	setp.ge.u64 %p1, %rd4, %rd2;\n"
	"	@%p1 bra FILL_DONE;\n"
	"FILL_LOOP:\n"
	CUDA_PTX_PATTERN_BYTE
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
	"	.param .u64 check_res\n"
	")\n"
	"{\n"
	"	.reg .pred %p<4>;\n"
	"	.reg .b32 %r<10>;\n"
	"	.reg .b64 %rd<16>;\n"
	CUDA_PTX_PROLOGUE("check")
	"	ld.param.u64 %rd14, [check_res];\n"
	"	cvta.to.global.u64 %rd14, %rd14;\n"
	"	add.u64 %rd15, %rd14, 8;\n"
	"	setp.ge.u64 %p1, %rd4, %rd2;\n"
	"	@%p1 bra CHECK_DONE;\n"
	"CHECK_LOOP:\n"
	CUDA_PTX_PATTERN_BYTE
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
	"}\n";

#endif
